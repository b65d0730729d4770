import { describe, expect, it } from 'vitest';
import { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';
import { logitRow, makeStep, makeSteps } from './synthetic-trace.js';

const Q = 4;
const STEPS = 12;
const clone = (steps: StepRecord[]) => structuredClone(steps);

/** Replaces step n's talker logits by the row shifted by `delta` (the code follows the new argmax). */
function shiftLogits(steps: StepRecord[], n: number, delta: number): void {
  steps[n - 1] = makeStep(n, Q, logitRow(n).map((x) => x + delta));
}

describe('localise (synthetic traces, divergence injected at a known step)', () => {
  it('finds nothing in identical traces', () => {
    const d = localise(makeSteps(STEPS, Q), makeSteps(STEPS, Q));
    expect(d).toMatchObject({ firstStep: null, stage: null, reconverges: false, divergedSteps: [], stepsA: STEPS, stepsB: STEPS });
    expect(Divergence.parse(d)).toEqual(d);
  });

  it.each([1, 2, 3, 7, 11])('talker logits perturbed at step %i only → that step, talker-logits, re-converges at the next', (n) => {
    const b = clone(makeSteps(STEPS, Q));
    shiftLogits(b, n, 0.5);
    const d = localise(makeSteps(STEPS, Q), b, { frameRate: 12.5 });
    expect(d).toMatchObject({ firstStep: n, stage: 'talker-logits', codebook: 0, divergedSteps: [n], reconverges: true, reconvergedAtStep: n + 1 });
    expect(d.timeSec).toBeCloseTo((n - 1) / 12.5, 12);
    expect(d.detail).toMatch(/^talker logit mean: .* vs .*\(\|Δ\| 0\.5 > 0\.001\)$/);
    expect(d.steps[n - 1].stage).toBe('talker-logits');
    expect(d.steps[n - 1].maxStatDiff).toBeCloseTo(0.5, 5);
  });

  it.each([2, 5, 9])('perturbed from step %i to the end → does not re-converge', (n) => {
    const b = clone(makeSteps(STEPS, Q));
    for (let s = n; s <= STEPS; s++) shiftLogits(b, s, 0.01);
    const d = localise(makeSteps(STEPS, Q), b);
    expect(d).toMatchObject({ firstStep: n, stage: 'talker-logits', reconverges: false });
    expect(d.divergedSteps).toEqual(Array.from({ length: STEPS - n + 1 }, (_, i) => n + i));
    expect(d.reconvergedAtStep).toBeUndefined();
  });

  it('a divergence at the last step does not re-converge', () => {
    const b = clone(makeSteps(STEPS, Q));
    shiftLogits(b, STEPS, 1);
    expect(localise(makeSteps(STEPS, Q), b)).toMatchObject({ firstStep: STEPS, reconverges: false });
  });

  it('logit shifts within the tolerance (5e-4 ≤ 1e-3) are not a divergence; a tighter tolerance makes them one', () => {
    const b = clone(makeSteps(STEPS, Q));
    shiftLogits(b, 4, 5e-4);
    expect(localise(makeSteps(STEPS, Q), b).firstStep).toBeNull();
    expect(localise(makeSteps(STEPS, Q), b, { tolerances: { logitAbs: 1e-4 } })).toMatchObject({ firstStep: 4, tolerances: { logitAbs: 1e-4 } });
  });

  it.each([1, 3, 8])('same logits, different code 0 at step %i → sampled-code', (n) => {
    const b = clone(makeSteps(STEPS, Q));
    b[n - 1].codes[0] = (b[n - 1].codes[0] + 1) % 64;
    expect(localise(makeSteps(STEPS, Q), b)).toMatchObject({ firstStep: n, stage: 'sampled-code', codebook: 0, reconverges: true });
  });

  it.each([[2, 1], [5, 3], [10, 2]])('code-predictor code differs at step %i, codebook %i', (n, c) => {
    const b = clone(makeSteps(STEPS, Q));
    b[n - 1].codes[c] += 1;
    expect(localise(makeSteps(STEPS, Q), b)).toMatchObject({ firstStep: n, stage: 'code-predictor', codebook: c });
  });

  it('code-predictor logits beyond tolerance name the codebook even when its code is equal', () => {
    const a = makeSteps(STEPS, Q);
    const cp = (salt: number) => [1, 2, 3].map((c) => logitStats(logitRow(c, salt)));
    a.forEach((s) => (s.codePredictorLogits = cp(0)));
    const b = clone(a);
    b[5].codePredictorLogits![1] = logitStats(logitRow(2, 0).map((x) => x + 0.1));
    expect(localise(a, b)).toMatchObject({ firstStep: 6, stage: 'code-predictor', codebook: 2 });
  });

  it.each([1, 4, 12])('NaN in the talker at step %i → talker-logits there, reported as the first non-finite', (n) => {
    const b = clone(makeSteps(STEPS, Q));
    const row = logitRow(n);
    row[10] = NaN;
    b[n - 1] = makeStep(n, Q, row);
    b[n - 1].nan!.talker = 1;
    const d = localise(makeSteps(STEPS, Q), b);
    expect(d).toMatchObject({ firstStep: n, stage: 'talker-logits', firstNonFinite: { a: null, b: { step: n, stage: 'talker', nan: 1 } } });
    expect(d.detail).toContain('NaN 0 vs 1');
    expect(d.steps[n - 1].maxStatDiff).toBeNaN();
  });

  it.each([2, 5, 9])('NaN in the code predictor at step %i → code-predictor there', (n) => {
    const b = clone(makeSteps(STEPS, Q));
    b[n - 1].nan!.codePredictor = 3;
    expect(localise(makeSteps(STEPS, Q), b)).toMatchObject({ firstStep: n, stage: 'code-predictor', firstNonFinite: { b: { step: n, stage: 'code-predictor' } } });
  });

  it('a run that stops early diverges at the first missing step', () => {
    expect(localise(makeSteps(STEPS, Q), makeSteps(STEPS - 2, Q))).toMatchObject({
      firstStep: STEPS - 1, stage: 'sampled-code', divergedSteps: [STEPS - 1, STEPS], reconverges: false, stepsB: STEPS - 2,
    });
  });
});

describe('localise: vocoder-only differences (codes equal everywhere)', () => {
  const sampleRate = 24000;
  const frameRate = 12.5; // 1920 samples per frame
  const tone = (n: number) => Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
  const length = STEPS * 1920;

  it.each([0, 1919, 1920, 5000, length - 1])('audio differing from sample %i → vocoder at that frame and time', (s) => {
    const a = tone(length);
    const b = a.slice();
    for (let i = s; i < Math.min(s + 200, length); i++) b[i] += 0.01;
    const d = localise(makeSteps(STEPS, Q), makeSteps(STEPS, Q), { frameRate, audio: { a, b, sampleRate } });
    const frame = Math.floor(s / 1920) + 1;
    expect(d).toMatchObject({ stage: 'vocoder', firstStep: frame, vocoderFrame: frame, firstDifferingSample: s });
    expect(d.timeSec).toBeCloseTo(s / sampleRate, 12);
    // A 200-sample burst ends inside the same or the next frame; later frames match again.
    const lastFrame = Math.floor((Math.min(s + 200, length) - 1) / 1920) + 1;
    expect(d.divergedSteps).toEqual(Array.from({ length: lastFrame - frame + 1 }, (_, i) => frame + i));
    expect(d.reconverges).toBe(lastFrame < STEPS);
  });

  it('differences below audioAbs (5e-5 ≤ 1e-4) are no divergence; NaN samples are', () => {
    const a = tone(length);
    const b = a.map((x) => x + 5e-5);
    expect(localise(makeSteps(STEPS, Q), makeSteps(STEPS, Q), { frameRate, audio: { a, b, sampleRate } }).firstStep).toBeNull();
    b[3000] = NaN;
    expect(localise(makeSteps(STEPS, Q), makeSteps(STEPS, Q), { frameRate, audio: { a, b, sampleRate } })).toMatchObject({ stage: 'vocoder', firstDifferingSample: 3000, firstStep: 2 });
  });

  it('a trace divergence keeps its stage and also reports where the audio first differs', () => {
    const a = tone(length);
    const b = a.slice();
    b[2 * 1920 + 7] = 0;
    const steps = clone(makeSteps(STEPS, Q));
    shiftLogits(steps, 3, 1);
    expect(localise(makeSteps(STEPS, Q), steps, { frameRate, audio: { a, b, sampleRate } })).toMatchObject({
      firstStep: 3, stage: 'talker-logits', firstDifferingSample: 2 * 1920 + 7, vocoderFrame: 3,
    });
  });
});
