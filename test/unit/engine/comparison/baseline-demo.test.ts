import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topGap } from '../../../../electron/common/forensics/near-tie.js';
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

  it('eager,fault=nondeterministic@3 (a deliberately nondeterministic profile): flagged from step 3 on, the other side deterministic', async () => {
    const req = { text: 'Hello world, this is a parity test.', profileA: 'eager', profileB: 'eager,fault=nondeterministic@3', seed: 0, sampling: GREEDY, bundle: 'demo' };
    const comparison = await compareProfiles(engine, req, { createdAt: '2026-01-01T00:00:00Z' });
    const baseline = await runBaseline(engine, req, comparison);
    expect(baseline.a.deterministic).toBe(true);
    const b = baseline.b;
    expect(b).toMatchObject({ deterministic: false, firstStep: 3 });
    expect(b.differingSteps.every((s) => s >= 3)).toBe(true);
    // The fault's 2^-20 relative noise moves logits by ~1e-6; the smallest top-1/top-2 gap of this text is far
    // larger, so no code can flip and the run-to-run difference stays within the 1e-3 logit tolerance.
    const gaps = comparison.resultA.steps.flatMap((s) => [s.logits, ...(s.codePredictorLogits ?? [])].map((r) => topGap(r)!));
    expect(Math.min(...gaps)).toBeGreaterThan(1e-4);
    expect(b.largestLogitDiff!.value).toBeLessThan(1e-4);
    expect(b.withinTolerance).toBe(true);
  });
});
