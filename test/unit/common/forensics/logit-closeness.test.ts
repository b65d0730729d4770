import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { logitClosenessWords } from '../../../../electron/common/forensics/logit-closeness.js';
import { divergenceLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { rowDrift } from '../../../../electron/common/forensics/near-tie.js';
import { verdictOf } from '../../../../electron/common/forensics/verdict.js';
import { logitRow, makeStep, makeSteps } from './synthetic-trace.js';

describe('the closeness line of the logit statistics', () => {
  it('says a NaN run holds non-finite values, never that its statistics are equal at every step', () => {
    // B's talker logits are NaN from step 3 on, counted as the engine counts them; steps 1-2 are equal.
    const a = makeSteps(5, 2);
    const b = a.map((s) => (s.step < 3 ? s : { ...makeStep(s.step, 2, logitRow(s.step).fill(NaN)), codes: s.codes, nan: { talker: 64, codePredictor: 0, vocoder: 0 } }));
    const words = logitClosenessWords(localise(a, b));
    expect(words).toBe('B non-finite from step 3 (talker: 64 NaN)');
    expect(words).not.toContain('equal at every step');
  });

  it('finds NaN statistics in a trace that records no counts', () => {
    const a = makeSteps(4, 2).map((s) => ({ ...s, nan: undefined, inf: undefined }));
    const b = a.map((s) => (s.step < 2 ? s : { ...s, logits: { ...s.logits!, mean: NaN } }));
    expect(logitClosenessWords(localise(a, b))).toBe('B logit statistics non-finite from step 2');
  });

  it('names the largest finite |Δ| of a finite run, and equal statistics as equal', () => {
    const a = makeSteps(4, 2);
    const b = a.map((s) => (s.step === 3 ? { ...s, logits: { ...s.logits!, mean: s.logits!.mean + 0.25 } } : s));
    expect(logitClosenessWords(localise(a, b))).toBe('logit |Δ| 0.250 at step 3 (talker mean)');
    expect(logitClosenessWords(localise(a, a))).toBe('logit statistics equal at every step');
    // Both: the non-finite values first, then the largest finite difference.
    const nan = b.map((s) => (s.step === 4 ? { ...s, logits: { ...s.logits!, std: Infinity }, inf: { talker: 1, codePredictor: 0, vocoder: 0 } } : s));
    expect(logitClosenessWords(localise(a, nan))).toBe('B non-finite from step 4 (talker: 1 Inf); largest finite logit |Δ| 0.250 at step 3 (talker mean)');
  });

  it('both sides NaN at every statistic: no finite value was compared, so no view folds it to a |Δ| of 0', () => {
    // The same NaN run twice (NaN matches NaN, so nothing diverges): every statistic pair is non-finite.
    const a = makeSteps(3, 2).map((s) => ({ ...makeStep(s.step, 2, logitRow(s.step).fill(NaN)), codes: s.codes, nan: { talker: 64, codePredictor: 0, vocoder: 0 } }));
    const d = localise(a, a);
    expect(d.firstStep).toBeNull();
    // 3 steps × 4 statistics: mean, std, min, max (logit-stats.ts: an all-NaN row has NaN min/max and no top-5).
    expect(d.logitPairs).toEqual({ finite: 0, nonFinite: 12 });
    expect(d.steps.map((s) => s.maxStatDiff)).toEqual([NaN, NaN, NaN]);
    expect(rowDrift(a[0].logits!, a[0].logits!)).toBeNaN();
    expect(logitClosenessWords(d)).toBe('A non-finite from step 1 (talker: 64 NaN); B non-finite from step 1 (talker: 64 NaN); no finite logit statistics compared (all 12 non-finite)');
    expect(divergenceLines('within-tolerance', d)).toContain('Logit statistics: no finite logit statistics compared (all 12 non-finite), so "within 0.001" measured no difference');
    // With bit-identical audio compared, equal finite statistics would be "identical"; NaN ones never are.
    const audio = { a: new Float32Array(8), b: new Float32Array(8), sampleRate: 8 };
    expect(verdictOf(localise(a, a, { audio, frameRate: 1 }), { bitIdentical: true })).toBe('within-tolerance');
    expect(verdictOf(localise(makeSteps(3, 2), makeSteps(3, 2), { audio, frameRate: 1 }), { bitIdentical: true })).toBe('identical');
    // Finite and equal: still exact, and no such line.
    const f = localise(makeSteps(3, 2), makeSteps(3, 2));
    expect(f.logitPairs).toEqual({ finite: 27, nonFinite: 0 }); // 3 steps × (4 + 5 top logits)
    expect(f.steps.map((s) => s.maxStatDiff)).toEqual([0, 0, 0]);
    expect(divergenceLines('identical', f).join('\n')).not.toContain('no finite');
    // Finite steps before the NaN ones: the NaN pairs are counted apart, and said to keep the run from "identical".
    const later = makeSteps(5, 2).map((s, i) => (i < 3 ? s : a[0]));
    const mixed = localise(later, later, { audio, frameRate: 1 });
    expect(mixed.logitPairs).toEqual({ finite: 27, nonFinite: 8 });
    expect(verdictOf(mixed, { bitIdentical: true })).toBe('within-tolerance');
    // A row partly NaN (mean and std NaN, min, max and top-5 finite) on both sides: equal where finite, still not identical.
    const partly = makeSteps(3, 2).map((s) => ({ ...s, logits: { ...s.logits!, mean: NaN, std: NaN } }));
    expect(verdictOf(localise(partly, partly, { audio, frameRate: 1 }), { bitIdentical: true })).toBe('within-tolerance');
    expect(divergenceLines('within-tolerance', mixed)).toContain('Logit statistics: 8 of 35 non-finite (NaN matches NaN but measures nothing; |Δ| is measured over the 27 finite ones), so not identical');
  });
});
