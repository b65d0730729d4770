// Reads a trace with the studio's own reader (dist/…/read-trace.js) and computes the engine's logitStats
// of raw rows, for test_trace_roundtrip.py. Usage: node read_trace_ts.mjs TRACE ROWS.f32 VOCAB
// (ROWS.f32: float32 little-endian rows of VOCAB values). Prints {trace, stats} as JSON, non-finite
// numbers as "NaN"/"Infinity" strings; a trace the reader refuses exits 2 with its message on stderr.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.PARITY_DIST;
const load = (path) => import(pathToFileURL(join(dist, ...path.split('/'))).href);
const { readTrace } = await load('common/trace/read-trace.js');
const { logitStats } = await load('common/trace/logit-stats.js');
const { nonFiniteReplacer } = await load('common/report/json-number.js');

const [tracePath, rowsPath, vocab] = process.argv.slice(2);
let trace;
try {
  trace = readTrace(readFileSync(tracePath, 'utf8'), tracePath);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
const bytes = readFileSync(rowsPath);
const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
const n = Number(vocab);
const stats = [];
for (let i = 0; i + n <= values.length; i += n) stats.push(logitStats(values.subarray(i, i + n)));
process.stdout.write(JSON.stringify({ trace, stats }, nonFiniteReplacer));
