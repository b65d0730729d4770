import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { frameDeltas } from '../../../../electron/common/draw/frame-delta.js';
import { deltaRange, deltaText, logFraction, stageDelta, stageOfDivergence, stageRows, stepDeltas } from '../../../../electron/common/draw/step-delta.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import type { TraceStep } from '../../../../electron/common/trace/step-record.js';
import { followViewport } from '../../../../renderer/src/components/follow-viewport.js';
import { stepChartData, stepWindow } from '../../../../renderer/src/components/step-chart-options.js';
import { createStudioStore } from '../../../../renderer/src/store/studio-store.js';

const stats = (mean: number) => ({ mean, std: 1.5, min: -3, max: 3, argmax: 1, top5: [{ id: 1, logit: 3 }] });

/**
 * Qwen3-TTS eager vs position-off-by-one in miniature (docs/real-models-qwen3-tts.md): 7 steps of 3
 * codebooks; the talker equal at every step; code-predictor codebook 2's logit mean 0.118568 vs 0.139035
 * from step 1 on (the verdict's numbers), codebook 1 equal at step 1 and 0.5 apart later.
 */
function qwenLikePair(): { a: TraceStep[]; b: TraceStep[] } {
  const step = (n: number, side: 'a' | 'b'): TraceStep => ({
    step: n,
    logits: stats(0.0455),
    codes: [60 + n, 33, side === 'a' ? 10 : 11],
    codePredictorLogits: [stats(side === 'b' && n > 1 ? 0.56 : 0.06), stats(side === 'a' ? 0.118568 : 0.139035)],
  });
  const steps = [1, 2, 3, 4, 5, 6, 7];
  return { a: steps.map((n) => step(n, 'a')), b: steps.map((n) => step(n, 'b')) };
}

describe('per-step |Δ| of every stage', () => {
  it('carries the code predictor per codebook in the report rows, so a step-1 code-predictor divergence has a value at step 1', () => {
    const { a, b } = qwenLikePair();
    const d = localise(a, b, { frameRate: 12.5 });
    expect([d.firstStep, d.stage, d.codebook]).toEqual([1, 'code-predictor', 2]);
    // Codebook 1 (entry 0) equal at step 1, codebook 2 (entry 1) apart by |0.118568 − 0.139035|.
    expect(d.steps[0].codePredictorDiff![0]).toBe(0);
    expect(d.steps[0].codePredictorDiff![1]).toBeCloseTo(0.020467, 9);
    const deltas = stepDeltas(d);
    expect(deltas.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The talker is equal at step 1: a 0, drawn, not a missing value.
    expect(stageDelta(deltas[0], 'talker')).toEqual({ delta: 0, nonFinite: undefined, missing: undefined });
    expect(deltas[0].codePredictor).toMatchObject({ codebook: 2 });
    expect(deltas[0].codePredictor!.delta).toBeCloseTo(0.020467, 9);
    // From step 2 codebook 1 is the worst (0.5 > 0.0205).
    expect(deltas[1].codePredictor!.codebook).toBe(1);
    expect(stageRows(deltas, d.tolerances).map((r) => r.stage)).toEqual(['talker', 'code-predictor']);
    expect(stageOfDivergence(d.stage)).toBe('code-predictor');
    expect(stageOfDivergence('sampled-code')).toBe('talker');
  });

  it('a vocoder row from both takes: the largest |A − B| of each frame’s samples, a frame past one take’s end missing on that side', () => {
    // 2 frames of 4 samples (rate 8, 2 frames/s): frame 1 equal, frame 2 apart by 0.25 at one sample; B has no frame 3.
    const a = Float32Array.from([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.1, 0.1, 0.1, 0.1]);
    const b = Float32Array.from([0, 0.1, 0.2, 0.3, 0.4, 0.75, 0.6, 0.7]);
    const frames = frameDeltas(a, b, 8, 2, 3);
    expect(frames[0]).toEqual({ delta: 0 });
    expect(frames[1].delta).toBeCloseTo(0.25, 6);
    expect(frames[2]).toEqual({ delta: null, missing: 'B' });
    const nan = frameDeltas(a, Float32Array.from([0, NaN, 0, 0]), 8, 2, 1);
    expect(nan[0]).toEqual({ delta: null, nonFinite: 'B not finite' });
    const { a: ta, b: tb } = qwenLikePair();
    const deltas = stepDeltas(localise(ta.slice(0, 3), tb.slice(0, 3)), frames);
    const rows = stageRows(deltas, { logitAbs: 1e-3, audioAbs: 1e-4 });
    expect(rows.map((r) => [r.stage, r.tolerance])).toEqual([['talker', 1e-3], ['code-predictor', 1e-3], ['vocoder', 1e-4]]);
    expect(deltaText(stageDelta(deltas[2], 'vocoder'))).toBe('A only');
  });

  it('always holds the tolerance in the y range: eager vs graph’s 1e-9…1e-5 with the 1e-3 tolerance', () => {
    const { a, b } = qwenLikePair();
    const d = localise(a, b);
    // The step chart: talker |Δ| between 1e-9 and 1e-5, the tolerance 1e-3 above them all.
    const tiny = [1e-9, 3e-7, 6e-7, 1e-5, 2e-8, 4e-6, 1e-6];
    const steps = d.steps.map((s, i) => ({ ...s, b: { ...s.b!, mean: Number(s.a!.mean) + tiny[i] }, codePredictorDiff: undefined }));
    const deltas = stepDeltas({ steps });
    const scale = stageRows(deltas, { logitAbs: 1e-3 })[0].range;
    expect(logFraction(1e-3, scale)).toBeGreaterThan(0);
    expect(logFraction(1e-3, scale)).toBeLessThan(1);
    // The smallest |Δ| sits above the floor, which is kept for zeros.
    expect(logFraction(1e-9, scale)).toBeGreaterThan(0);
    // Identical runs (every |Δ| 0) still have the tolerance on the scale.
    const equal = stepDeltas({ steps: d.steps.map((s) => ({ ...s, b: s.a, codePredictorDiff: undefined })) });
    const range = deltaRange(equal, 1e-3);
    expect(logFraction(1e-3, range)).toBeGreaterThan(0);
    expect(logFraction(1e-3, range)).toBeLessThan(1);
  });

  it('draws a zero on the floor of its log axis and says "0 (equal)"; a 6e-7 is read exactly, never as 0', () => {
    const { a, b } = qwenLikePair();
    const deltas = stepDeltas(localise(a, b));
    const rows = stageRows(deltas, { logitAbs: 1e-3 });
    const data = stepChartData(deltas, rows);
    // Talker |Δ| is 0 at every step: every point is there, on the floor, below every non-zero value.
    expect(data[1]).toEqual(deltas.map(() => rows[0].range.min));
    expect(rows[0].range.min).toBeLessThan(deltas[0].codePredictor!.delta!);
    expect((data[2] as (number | null)[]).every((v) => v !== null && v > rows[1].range.min)).toBe(true);
    expect(deltaText({ delta: 0 })).toBe('0 (equal)');
    expect(deltaText({ delta: 6.1e-7 })).toBe('6.100e-7');
    expect(deltaText(undefined)).toBe('not recorded');
  });

  it('ends the step axis at the last step: 7 steps span 0.5…7.5 (no tick at 8), also when the viewport runs past the take', () => {
    const { a, b } = qwenLikePair();
    const deltas = stepDeltas(localise(a, b));
    const window = stepWindow(deltas);
    expect(window).toEqual({ min: 0.5, max: 7.5 });
    // 7 frames at 12.5 frames/s = 0.56 s; takes of 1 s (audio past the last frame) still stop the chart at 7.5.
    const store = createStudioStore({} as StudioApi);
    const take = { sampleRate: 24000, samples: new Float32Array(24000) };
    store.getState().showComparison({ historyId: 'h', a: take, b: take, report: {} } as unknown as ComparisonResult);
    const scales: { min?: number; max?: number }[] = [];
    const chart = { setScale: (_key: string, s: { min?: number; max?: number }) => scales.push(s) } as unknown as uPlot;
    const off = followViewport(store, chart, (sec) => sec * 12.5 + 0.5, window);
    expect(scales.at(-1)).toEqual({ min: 0.5, max: 7.5 });
    store.getState().setViewport({ start: 0.24, end: 0.8 });
    expect(scales.at(-1)!.max).toBe(7.5);
    expect(scales.at(-1)!.min).toBeCloseTo(3.5, 9);
    off();
  });
});
