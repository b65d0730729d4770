// The studio's own reader's verdict on each trace file given (dist/…/read-trace.js): prints a JSON list
// with null for a trace it reads, else its message. For test_trace_writer_rules.py.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { readTrace } = await import(pathToFileURL(join(process.env.PARITY_DIST, 'common', 'trace', 'read-trace.js')).href);
const verdicts = process.argv.slice(2).map((file) => {
  try {
    readTrace(readFileSync(file, 'utf8'), file);
    return null;
  } catch (error) {
    return error.message;
  }
});
process.stdout.write(JSON.stringify(verdicts));
