import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-trace-memory-'));
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

describe('compare-trace memory', () => {
  // A heap cap, not a timing: a reader that held the traces or their rows would run out of it. The
  // whole-trace reader (before the streamed one) aborted here with a V8 heap-limit crash (exit 134).
  it('compares a 40,000-step pair and writes its report.json in a 64 MB heap', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    trace(a, 40_000, 40_001);
    trace(b, 40_000, 20_001);
    const run = await runParity(['compare-trace', a, b, '--json'], { env: { NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 180_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { divergence: { firstStep: number; steps: unknown[] } };
    expect(report.divergence.firstStep).toBe(20_001);
    expect(report.divergence.steps).toHaveLength(40_000);
  }, 200_000);
});
