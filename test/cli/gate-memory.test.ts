import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/cli/bench/trace-file.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-gate-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gate memory', () => {
  // A heap cap, not a timing: a gate that held the report's rows or the traces would run out of it. The
  // whole-file gate (before it read report.json and the traces as streams) aborted here with a V8
  // heap-limit crash (exit 134), measured with the previous build.
  it('re-checks a 20,000-step trace fixture in a 32 MB heap', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    await writeTrace(a, 20_000, 20_001);
    await writeTrace(b, 20_000, 10_001);
    const fixture = join(dir, 'fixture');
    const made = await runParity(['compare-trace', a, b, '--out', fixture], { timeoutMs: 120_000 });
    expect(made.stderr).toBe('');
    const run = await runParity(['gate', fixture], { env: { NODE_OPTIONS: '--max-old-space-size=32' }, timeoutMs: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`PASS ${fixture}: traces ${a} vs ${b}: recorded diverged at step 10001 (talker-logits)\ngate: 1 passed, 0 failed\n`);
    expect(run.status).toBe(0);
  }, 240_000);
});
