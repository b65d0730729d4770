import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';
import { runParity } from './run-parity.js';

const TEXT = 'Hello world, this is a parity test.'; // 32 frames; the batch's other rows are 4 to 42 characters
const TIMEOUT = { timeoutMs: 60_000 };

/** "Largest logit |Δ|: 2.4e-6 at step 6 (…), within 0.001" → 2.4e-6. */
function largestLogitDiff(stdout: string): number {
  const m = /^Largest logit \|Δ\|: (\S+) at step \d+ .*, within 0\.001$/m.exec(stdout);
  if (!m) throw new Error(`no "Largest logit |Δ|" line in:\n${stdout}`);
  return Number(m[1]);
}

describe('parity compare: batch=N is batch-invariant on the demo (docs/forensics.md "Batch invariance")', () => {
  // Tolerance: the default logitAbs 1e-3. Row 0 runs the same weights through other GEMM shapes and
  // attends over more (masked) keys, a float32 reordering: measured 2.4e-6 (graph, batch 8) and 1.7e-6
  // (eager, batch 4) on this prompt. A difference above 0 shows the batched exports really ran.
  for (const [a, b] of [['graph', 'graph,batch=8'], ['eager', 'eager,batch=4']]) {
    it(`${a} vs ${b}: within tolerance, codes and audio equal, logits moved by float32 reordering only`, async () => {
      const run = await runParity(['compare', '--text', TEXT, '--a', a, '--b', b], TIMEOUT);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Verdict: within-tolerance');
      expect(run.stdout).toContain('No divergence: 32 steps compared, codes exact');
      expect(run.stdout).toMatch(/^ {2}Bit-identical +yes$/m);
      const diff = largestLogitDiff(run.stdout);
      expect(diff).toBeGreaterThan(0);
      expect(diff).toBeLessThan(1e-4);
    });
  }

  it('graph,batch=8 vs graph,batch=8,fault=batch-gather@5: the wrong-row gather is localised at step 5, talker logits', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph,batch=8', '--b', 'graph,batch=8,fault=batch-gather@5'], TIMEOUT);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Verdict: diverged\n');
    expect(run.stdout).toContain('First divergence: step 5, stage talker-logits, codebook 0, t = 0.320 s');
    expect(run.stdout).toMatch(/Codes first differ: step 5, codebook 0 \(A \d+, B \d+\): real flip/);
  });

  it('graph vs graph,batch=1,fault=batch-gather@5: no other row, no divergence; the fault says so and compare exits 2', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,batch=1,fault=batch-gather@5'], TIMEOUT);
    expect(run.stdout).toContain('Verdict: identical\n');
    expect(run.stderr).toBe(
      'warning: B (graph,fault=batch-gather@5): fault batch-gather@5 was not applied: at batch=1 there is no other row: the gather picks the only row, so the output is that of no fault\n' +
        'parity compare: none of the requested faults was applied (batch-gather@5); exit 2\n',
    );
    expect(run.status).toBe(2);
  });
});

describe('parity compare: a bundle without batch support refuses batch=N', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity-batch-'));
  const old = join(dir, 'old');
  beforeAll(() => writeDemoBundle(old, undefined, { presets: ['eager'], precisions: ['fp32'], faultVariants: false, batch: false }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('one line naming bundle.json and the missing field, exit 2', async () => {
    const run = await runParity(['compare', '--bundle', old, '--text', 'Hello.', '--a', 'eager', '--b', 'eager,batch=4'], TIMEOUT);
    expect(run.stderr).toBe(
      `parity compare: ${join(old, 'bundle.json')}: profile "eager,batch=4" runs a batch of 4, but this bundle declares no batch support (bundle.json has no "batch" field; it runs batch 1 only; docs/bundle-format.md "Batch support")\n`,
    );
    expect(run.status).toBe(2);
  });
});
