import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import { localise } from '../../../electron/common/forensics/localise.js';
import { DEFAULT_TOLERANCES } from '../../../electron/common/forensics/tolerances.js';
import type { StepRecord } from '../../../electron/common/trace/step-record.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';
import { comparisonSelectors } from '../../../renderer/src/store/comparison/comparison-selectors.js';
import { niceCeil, rejudge, suggestTolerances } from '../../../renderer/src/store/tolerance/judgement.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';

// The fp16 case of the issue, by hand: the same codes at every step, one logit statistic 0.019 apart at
// step 2, and audio 3e-5 apart at one sample. Under the CLI's defaults (logit 1e-3, audio 1e-4) the
// logits diverge; under logit 0.02 everything is within tolerance.
const logits = (max: number) => ({ mean: 0.5, std: 2, min: -5, max, argmax: 3, top5: [{ id: 3, logit: max }] });
const record = (step: number, max: number): StepRecord => ({ step, logits: logits(max), codes: [3, 4] });
const stepsA = [record(1, 9), record(2, 9), record(3, 9)];
const stepsB = [record(1, 9), record(2, 9.019), record(3, 9)];
const rate = 1000;
const a = Float32Array.from({ length: 240 }, (_, i) => Math.sin(i / 5));
const b = a.map((v, i) => (i === 100 ? v + 3e-5 : v));

function comparison(steps: { a: StepRecord[]; b: StepRecord[] } = { a: stepsA, b: stepsB }, audioB = b): ComparisonResult {
  const divergence = localise(steps.a, steps.b, { frameRate: 12.5, audio: { a, b: audioB, sampleRate: rate } });
  return {
    historyId: 'fp16',
    a: { sampleRate: rate, samples: a },
    b: { sampleRate: rate, samples: audioB },
    report: { kind: 'profiles', verdict: 'diverged', divergence, metrics: { bitIdentical: false, maxAbsDiff: 3e-5, lengthA: 240, lengthB: 240 }, a: { steps: steps.a, frameRate: 12.5 }, b: { steps: steps.b } },
  } as unknown as ComparisonResult;
}

describe('tolerances in the studio: the verdict judged again by the CLI rule', () => {
  it('diverges at step 2 under the defaults and is within tolerance under the suggested logit 0.02', () => {
    const c = comparison();
    const byDefault = rejudge(c, { logitAbs: DEFAULT_TOLERANCES.logitAbs, audioAbs: DEFAULT_TOLERANCES.audioAbs })!;
    expect(byDefault.verdict).toBe('diverged');
    expect(byDefault.divergence.firstStep).toBe(2);
    const suggestion = suggestTolerances(c, 3e-5, true);
    // 0.019 → 0.02 (1-2-5 ceiling); the audio's 3e-5 is under the default 1e-4, which is kept.
    expect(suggestion).toEqual({ tolerances: { logitAbs: 0.02, audioAbs: 1e-4 } });
    const suggested = { logitAbs: 0.02, audioAbs: 1e-4 };
    const judged = rejudge(c, suggested)!;
    expect(judged.verdict).toBe('within-tolerance');
    expect(judged.divergence.largestLogitDiff).toMatchObject({ step: 2, field: 'talker max' });
    expect(judged.divergence.largestLogitDiff!.value).toBeCloseTo(0.019, 9);
    // A tighter audio tolerance than the 3e-5 difference diverges at the vocoder again.
    expect(rejudge(c, { logitAbs: 0.02, audioAbs: 1e-5 })!.divergence.stage).toBe('vocoder');
  });

  it('a vocoder-only difference says where the audio differs most: sample and frame of the largest |Δ|', () => {
    const seam = a.map((v, i) => (i === 100 ? v + 3e-4 : i === 170 ? v + 2e-3 : v));
    const divergence = localise(stepsA, stepsA, { frameRate: 12.5, audio: { a, b: seam, sampleRate: rate } });
    expect(divergence).toMatchObject({ stage: 'vocoder', firstStep: 2 });
    // sample 170 at 1000 Hz and 12.5 frames/s is frame ⌊170 · 12.5 / 1000⌋ + 1 = 3
    expect(divergence.detail).toMatch(/; largest \|Δ\| 0\.002\d* at sample 170 \(frame 3\)$/);
  });

  it('the store’s verdict and divergence follow the tolerances set, and a new comparison starts from the report’s', () => {
    const store = createStudioStore({} as StudioApi);
    store.getState().showComparison(comparison());
    expect(comparisonSelectors.verdict(store.getState())).toBe('diverged');
    store.getState().setTolerances({ logitAbs: 0.02, audioAbs: 1e-4 });
    expect(comparisonSelectors.verdict(store.getState())).toBe('within-tolerance');
    expect(comparisonSelectors.divergence(store.getState())!.firstStep).toBeNull();
    store.getState().showComparison(comparison());
    expect(store.getState().tolerances).toBeUndefined();
    expect(comparisonSelectors.verdict(store.getState())).toBe('diverged');
  });

  it('suggests nothing when a code differs (no tolerance admits it), and rounds up to 1-2-5', () => {
    const flipped = comparison({ a: stepsA, b: [record(1, 9), { ...record(2, 9), codes: [5, 4] }, record(3, 9)] });
    expect(suggestTolerances(flipped, 0, true)).toBeUndefined();
    expect([niceCeil(0.019), niceCeil(3.1e-5), niceCeil(0.001), niceCeil(0.6)]).toEqual([0.02, 5e-5, 0.001, 1]);
  });

  it('offers no number when the codes are equal but one side is non-finite: says no tolerance makes a NaN match', () => {
    // B's talker max is NaN at step 2 (its NaN count says so) with the codes unchanged: diverged at the talker
    // logits, and no finite logit tolerance can change that.
    const nanStep: StepRecord = { ...record(2, NaN), nan: { talker: 1, codePredictor: 0, vocoder: 0 } };
    const c = comparison({ a: stepsA, b: [record(1, 9), nanStep, record(3, 9)] });
    const suggestion = suggestTolerances(c, 3e-5, true);
    expect(suggestion).toEqual({ refusal: 'no tolerance makes a NaN or an infinity match a number: B non-finite from step 2 (talker: 1 NaN)' });
    // The same for audio: a NaN sample in B is no distance any audio tolerance admits.
    const nanAudio = b.map((v, i) => (i === 50 ? NaN : v));
    expect(suggestTolerances(comparison({ a: stepsA, b: stepsA }, nanAudio), NaN, true)).toMatchObject({ refusal: expect.stringMatching(/^no tolerance makes a NaN or an infinity match a number: all codes equal; audio differs from sample 50: /) });
  });
});
