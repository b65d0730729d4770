import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/common/trace/write-trace.js';
import { header, makeSteps } from '../unit/common/forensics/synthetic-trace.js';
import { malformedTraces } from '../unit/common/trace/malformed-traces.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-bad-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parity compare-trace on malformed traces', () => {
  const good = join(dir, 'good.jsonl');
  writeFileSync(good, writeTrace(header(4), makeSteps(3, 4)));

  it.each(malformedTraces())(
    '%s → exit 2, one stderr line naming the file and line',
    async (what, text, line, words) => {
      const bad = join(dir, `${what.replace(/ /g, '-')}.jsonl`);
      writeFileSync(bad, text);
      const run = await runParity(['compare-trace', good, bad]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr.startsWith(`parity compare-trace: ${bad}:${line}: `)).toBe(true);
      expect(run.stderr).toContain(words);
    },
  );
});
