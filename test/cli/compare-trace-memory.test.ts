import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/cli/bench/trace-file.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-trace-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compare-trace memory', () => {
  // A heap cap, not a timing: a reader that held the traces or their rows would run out of it. The
  // whole-trace reader (before the streamed one) aborted here with a V8 heap-limit crash (exit 134).
  it('compares a 40,000-step pair and writes its report.json in a 64 MB heap', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    await writeTrace(a, 40_000, 40_001);
    await writeTrace(b, 40_000, 20_001);
    const run = await runParity(['compare-trace', a, b, '--json'], { env: { NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 180_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { divergence: { firstStep: number; steps: unknown[] } };
    expect(report.divergence.firstStep).toBe(20_001);
    expect(report.divergence.steps).toHaveLength(40_000);
  }, 200_000);
});
