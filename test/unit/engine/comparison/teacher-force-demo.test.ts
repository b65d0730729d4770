import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

const TEXT = 'Hello world, this is a parity test.'; // 32 frames on the demo
let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

const forced = (profileA: string, profileB: string) =>
  compareProfiles(engine, { text: TEXT, profileA, profileB, seed: 0, sampling: GREEDY, bundle: 'demo', teacherForce: true }, { createdAt: '2026-01-01T00:00:00Z' });

describe('teacher forcing on the demo bundle (B fed A\'s codes)', () => {
  it('graph vs graph: the same profile forced on its own codes repeats itself exactly (the hook changes nothing else)', async () => {
    const { report, resultA, resultB } = await forced('graph', 'graph');
    expect(report.verdict).toBe('identical');
    expect(report.teacherForced).toMatchObject({ wouldFlip: [], peak: { step: 1, value: 0 }, numericallyEquivalent: true });
    expect(resultB.codes).toEqual(resultA.codes);
  });

  it('graph vs graph,precision=fp16: B vocodes A\'s codes, records its own picks; every would-flip a near-tie, no real divergence', async () => {
    const { report, resultA, resultB } = await forced('graph', 'graph,precision=fp16');
    const tf = report.teacherForced!;
    expect(resultB.codes).toEqual(resultA.codes); // what B fed on and vocoded
    // Its trace holds its own picks: equal to A's except at the would-flips.
    const flips = new Set(tf.wouldFlip.map((f) => `${f.step}:${f.codebook}`));
    report.b.steps.forEach((s, i) => s.codes.forEach((c, cb) => expect(c === report.a.steps[i].codes[cb]).toBe(!flips.has(`${i + 1}:${cb}`))));
    expect(tf.wouldFlip.length).toBeGreaterThan(0);
    expect(tf.counts).toEqual({ nearTie: tf.wouldFlip.length, real: 0, unknown: 0 });
    expect(tf.numericallyEquivalent).toBe(true);
    // fp16 vs fp32 logits of magnitude ~2–4 differ by a few fp16 spacings (2^-9) at most at every step, never 0.
    expect(tf.curve).toHaveLength(32);
    for (const x of tf.curve) {
      expect(x).toBeGreaterThan(0);
      expect(x).toBeLessThan(8 * 2 ** -9);
    }
    expect(report.rerun.teacherForce).toBe(true);
  });

  it('eager vs graph: float32 reorderings only: no would-flip, drift far below the logit tolerance', async () => {
    const { report } = await forced('eager', 'graph');
    expect(report.teacherForced!.wouldFlip).toEqual([]);
    expect(report.teacherForced!.peak!.value).toBeLessThan(1e-4);
    expect(report.verdict).toBe('within-tolerance');
  });

  it('graph vs graph,fault=stale-feedback@5: steps 1–4 exact, the drift peaks at step 5 with real would-flips there', async () => {
    const tf = (await forced('graph', 'graph,fault=stale-feedback@5')).report.teacherForced!;
    expect(tf.curve.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(tf.peak!.step).toBe(5);
    expect(tf.wouldFlip[0]).toMatchObject({ step: 5, codebook: 0, kind: 'real' });
    expect(tf.numericallyEquivalent).toBe(false);
  });

  it('a teacher whose frame count differs is refused, naming both counts; a native profile B is refused', async () => {
    const profile = parseProfile('graph');
    await expect(engine.synthesize({ text: TEXT, profile, seed: 0, sampling: GREEDY }, { teacherCodes: new Int32Array(8 * 3) })).rejects.toThrow(
      /teacher forcing: the teacher's codes hold 3 frames of 8 codes, this synthesis makes 32 frames/,
    );
    await expect(forced('graph', 'graph,backend=native')).rejects.toThrow(/native backend, which cannot be fed A's codes/);
  });
});
