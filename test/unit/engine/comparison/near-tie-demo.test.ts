import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowStats } from '../../../../electron/common/forensics/near-tie.js';
import { verdictWords } from '../../../../electron/common/forensics/verdict.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

const TEXT = 'Hello world, this is a parity test.'; // 32 frames on the demo
let engine: Engine;

beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

const compare = (profileA: string, profileB: string) =>
  compareProfiles(engine, { text: TEXT, profileA, profileB, seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2026-01-01T00:00:00Z' });

describe('near-tie flips on the demo bundle', () => {
  it('graph vs graph,precision=fp16: the first differing code is a swap of the two top codes, labelled near-tie', async () => {
    const { report } = await compare('graph', 'graph,precision=fp16');
    const flip = report.divergence.flip!;
    // Regression values (this demo's own earlier output): step 13, codebook 5, A 81 vs B 65.
    expect(flip).toMatchObject({ step: 13, codebook: 5, codeA: 81, codeB: 65, kind: 'near-tie', exact: true, numericallyEquivalent: true });
    // Read from the traces, not from the classifier: each side's runner-up is the other side's pick.
    const a = rowStats(report.a.steps[12], 5)!;
    const b = rowStats(report.b.steps[12], 5)!;
    expect([a.top5[0].id, a.top5[1].id, b.top5[0].id, b.top5[1].id]).toEqual([81, 65, 65, 81]);
    // fp16 spacing at logits in [2, 4) is 2^-9 ≈ 0.00195: a rounding swap moves the pair by a few of those.
    expect(flip.pairDrift!).toBeLessThan(4 * 2 ** -9);
    expect(flip.pairDrift!).toBeCloseTo(a.top5[0].logit - a.top5[1].logit + (b.top5[0].logit - b.top5[1].logit), 12);
    expect(report.verdict).toBe('diverged');
    expect(verdictWords(report.verdict, report.divergence)).toBe('diverged at a near-tie (numerically equivalent)');
  });

  it('eager vs eager,fault=stale-feedback@2: a wrong input, labelled real (neither pick is in the other side\'s top-5)', async () => {
    const { report } = await compare('eager', 'eager,fault=stale-feedback@2');
    const flip = report.divergence.flip!;
    expect(flip).toMatchObject({ step: 2, codebook: 0, kind: 'real', exact: false, numericallyEquivalent: false });
    const a = report.a.steps[1].logits.top5.map((t) => t.id);
    const b = report.b.steps[1].logits.top5.map((t) => t.id);
    expect(a).not.toContain(flip.codeB);
    expect(b).not.toContain(flip.codeA);
    expect(flip.pairDrift!).toBeGreaterThan(1);
    expect(verdictWords(report.verdict, report.divergence)).toBe('diverged');
  });
});
