import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { runBaseline } from '../../../../electron/engine/comparison/baseline-runs.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

describe('determinism baseline on the demo bundle (CPU)', () => {
  it('eager and graph,precision=fp16 each repeat themselves bit for bit; A vs B is between the profiles', async () => {
    const req = { text: 'Baseline check.', profileA: 'eager', profileB: 'graph,precision=fp16', seed: 0, sampling: GREEDY, bundle: 'demo' };
    const comparison = await compareProfiles(engine, req, { createdAt: '2026-01-01T00:00:00Z' });
    const baseline = await runBaseline(engine, req, comparison);
    // ORT on CPU runs the same kernels in the same order each time: a repeat must be bit-identical.
    for (const side of [baseline.a, baseline.b]) {
      expect(side).toMatchObject({ deterministic: true, differingSteps: [], largestLogitDiff: null, audioMaxAbsDiff: 0, withinTolerance: true });
    }
    expect(baseline.a.profile).toBe('eager');
    expect(baseline.b.profile).toBe('graph,precision=fp16');
    expect(comparison.report.divergence.firstStep).not.toBeNull();
  });
});
