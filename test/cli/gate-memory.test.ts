import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-gate-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bench-like trace (talker statistics and 8 codes per step), B differing from `differFrom` on. */
function trace(path: string, steps: number, differFrom: number): void {
  const lines = ['{"schema":"tts-parity-trace/1","engine":"bench","q":8,"frameRate":12.5,"sampleRate":24000}'];
  for (let step = 1; step <= steps; step++) {
    const d = step >= differFrom ? 0.01 : 0;
    const codes = Array.from({ length: 8 }, (_, c) => (step * 7 + c * 13 + (d && c === 0 ? 1 : 0)) % 2048);
    lines.push(JSON.stringify({ step, logits: { mean: Math.sin(step) + d, std: 1 + 0.1 * Math.cos(step), min: -5 + d, max: 7 + d, argmax: step % 2048 }, codes }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

describe('gate memory', () => {
  // A heap cap, not a timing: a gate that held the report's rows or the traces would run out of it. The
  // whole-file gate (before it read report.json and the traces as streams) aborted here with a V8
  // heap-limit crash (exit 134), measured with the previous build.
  it('re-checks a 20,000-step trace fixture in a 32 MB heap', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    trace(a, 20_000, 20_001);
    trace(b, 20_000, 10_001);
    const fixture = join(dir, 'fixture');
    const made = await runParity(['compare-trace', a, b, '--out', fixture], { timeoutMs: 120_000 });
    expect(made.stderr).toBe('');
    const run = await runParity(['gate', fixture], { env: { NODE_OPTIONS: '--max-old-space-size=32' }, timeoutMs: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`PASS ${fixture}: traces ${a} vs ${b}: recorded diverged at step 10001 (talker-logits)\ngate: 1 passed, 0 failed\n`);
    expect(run.status).toBe(0);
  }, 240_000);
});
