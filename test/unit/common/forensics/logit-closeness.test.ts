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
    expect(words).toBe('non-finite values (B from step 3 in talker: NaN 64, Inf 0); the finite logit statistics equal');
    expect(words).not.toContain('equal at every step');
  });

  it('finds NaN statistics in a trace that records no counts', () => {
    const a = makeSteps(4, 2).map((s) => ({ ...s, nan: undefined, inf: undefined }));
    const b = a.map((s) => (s.step < 2 ? s : { ...s, logits: { ...s.logits!, mean: NaN } }));
    expect(logitClosenessWords(localise(a, b))).toBe('non-finite values (B logit statistics from step 2); the finite logit statistics equal');
  });

  it('names the largest finite |Δ| of a finite run, and equal statistics as equal', () => {
    const a = makeSteps(4, 2);
    const b = a.map((s) => (s.step === 3 ? { ...s, logits: { ...s.logits!, mean: s.logits!.mean + 0.25 } } : s));
    expect(logitClosenessWords(localise(a, b))).toBe('logit |Δ| 0.250 at step 3 (talker mean)');
    expect(logitClosenessWords(localise(a, a))).toBe('logit statistics equal at every step');
  });
});
