import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { logitClosenessWords } from '../../../../electron/common/forensics/logit-closeness.js';
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
});
