import { describe, expect, it } from 'vitest';
import { driftTrend, sparkline, TeacherForcedDrift, teacherForcedDrift, teacherForcedLines } from '../../../../electron/common/forensics/drift.js';
import { verdictWords } from '../../../../electron/common/forensics/verdict.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import type { LogitStats, StepRecord, TraceStep } from '../../../../electron/common/trace/step-record.js';

// Hand-built teacher-forced pairs: dyadic logits (exact in binary), expected values worked out by hand.
function row(top: [id: number, logit: number][], mean = 0): LogitStats {
  return { mean, std: 1, min: -3, max: top[0][1], argmax: top[0][0], top5: top.map(([id, logit]) => ({ id, logit })) };
}
const PLAIN = row([[7, 3], [8, 2], [9, 1.5], [10, 1.25], [11, 1]]);
const shifted = (mean: number) => ({ ...PLAIN, mean });
const SWAP_A = row([[81, 2.5], [65, 2.4375], [3, 2], [4, 1.75], [5, 1.5]]);
const SWAP_B = row([[65, 2.5], [81, 2.46875], [3, 2], [4, 1.75], [5, 1.5]]);
const step = (n: number, logits: LogitStats, code0 = 7): StepRecord => ({ step: n, logits, codes: [code0, 1] });

describe('teacherForcedDrift (hand-built, B fed A\'s codes)', () => {
  it('small drift and one near-tie would-flip: curve, trend, counts; numerically equivalent', () => {
    const a = [step(1, PLAIN), step(2, PLAIN), step(3, SWAP_A, 81), step(4, PLAIN)];
    const b = [step(1, PLAIN), step(2, shifted(0.0625)), step(3, SWAP_B, 65), step(4, PLAIN)];
    const d = teacherForcedDrift(a, b, 0.1);
    // step 2: mean 0 vs 0.0625; step 3: rank-2 logit 2.4375 vs 2.46875 → 0.03125.
    expect(d.curve).toEqual([0, 0.0625, 0.03125, 0]);
    expect(d.peak).toEqual({ step: 2, value: 0.0625 });
    // n = 4 → quarters of 1 step: first 0, last 0 → flat. Slope: Σ(x−2.5)(y−ȳ)/Σ(x−2.5)² = −0.015625/5.
    expect(d.trend).toEqual({ slopePerStep: -0.003125, firstQuarterMean: 0, lastQuarterMean: 0, direction: 'flat' });
    expect(d.wouldFlip).toHaveLength(1);
    // pairDrift (2.5 − 2.4375) + (2.5 − 2.46875) = 0.09375; drift before it 0.0625 ≤ 0.1.
    expect(d.wouldFlip[0]).toMatchObject({ step: 3, codebook: 0, codeA: 81, codeB: 65, pairDrift: 0.09375, kind: 'near-tie', driftBefore: 0.0625, numericallyEquivalent: true });
    expect(d.counts).toEqual({ nearTie: 1, real: 0, unknown: 0 });
    expect(d.numericallyEquivalent).toBe(true);
    expect(verdictWords('diverged', undefined, d)).toBe('diverged at a near-tie (numerically equivalent)');
  });

  it('drift growing past the threshold, no would-flip: not equivalent; trend growing with slope 0.0625/step', () => {
    const a = [1, 2, 3, 4].map((n) => step(n, PLAIN));
    const b = [0, 0.25, 0.5, 0.125].map((m, i) => step(i + 1, shifted(m)));
    const d = teacherForcedDrift(a, b, 0.1);
    expect(d.curve).toEqual([0, 0.25, 0.5, 0.125]);
    expect(d.peak).toEqual({ step: 3, value: 0.5 });
    // ȳ = 0.21875; Σ(x−2.5)(y−ȳ) = 0.3125, Σ(x−2.5)² = 5.
    expect(d.trend).toEqual({ slopePerStep: 0.0625, firstQuarterMean: 0, lastQuarterMean: 0.125, direction: 'growing' });
    expect(d).toMatchObject({ wouldFlip: [], counts: { nearTie: 0, real: 0, unknown: 0 }, numericallyEquivalent: false });
    expect(verdictWords('diverged', undefined, d)).toBe('diverged');
    expect(teacherForcedLines(d).at(-1)).toBe('Not numerically equivalent under teacher forcing: drift above the near-tie gap 0.1 (peak 0.5 at step 3)');
  });

  it('drift within the gap and no would-flip: "numeric drift only"', () => {
    const a = [step(1, PLAIN), step(2, PLAIN)];
    const b = [step(1, PLAIN), step(2, shifted(0.0625))];
    const d = teacherForcedDrift(a, b, 0.1);
    expect(d.numericallyEquivalent).toBe(true);
    expect(verdictWords('diverged', undefined, d)).toBe('diverged by numeric drift only (numerically equivalent under teacher forcing)');
    expect(verdictWords('within-tolerance', undefined, d)).toBe('within-tolerance');
  });

  it('a NaN on one side marks the step non-finite: peak there, trend non-finite', () => {
    const a = [1, 2, 3].map((n) => step(n, PLAIN));
    const b = [step(1, PLAIN), step(2, shifted(NaN)), step(3, shifted(1))];
    const d = teacherForcedDrift(a, b, 0.1);
    expect(d.curve[0]).toBe(0);
    expect(d.curve[1]).toBeNaN();
    expect(d.curve[2]).toBe(1);
    expect(d.peak!.step).toBe(2);
    expect(d.trend.direction).toBe('non-finite');
    expect(d.numericallyEquivalent).toBe(false);
  });
});

describe('teacherForcedDrift: steps where neither side recorded logits', () => {
  // Codes only: a trace may record logit statistics at some steps and not others (docs/trace-format.md).
  const bare = (n: number): TraceStep => ({ step: n, codes: [7, 1] });

  it('an unrecorded step is null (not a drift of 0); peak, trend and equivalence count only the measured steps', () => {
    const a = [step(1, PLAIN), bare(2), step(3, PLAIN), bare(4)];
    const b = [step(1, shifted(0.25)), bare(2), step(3, shifted(0.5)), bare(4)];
    const d = teacherForcedDrift(a, b, 0.1);
    expect(d.curve).toEqual([0.25, null, 0.5, null]);
    expect(d.measuredSteps).toBe(2);
    // report.json keeps the gaps as null, and the schema reads them back.
    expect(TeacherForcedDrift.parse(JSON.parse(stringifyReport(d))).curve).toEqual([0.25, null, 0.5, null]);
    expect(d.peak).toEqual({ step: 3, value: 0.5 });
    // Two measured points (steps 1 and 3): quarters of one point each; slope (0.5 − 0.25) / (3 − 1).
    expect(d.trend).toEqual({ slopePerStep: 0.125, firstQuarterMean: 0.25, lastQuarterMean: 0.5, direction: 'flat' });
    // Bars: floor(0.25 / 0.5 · 7.999) = 3 → the 4th of 8 levels; · for the unmeasured steps.
    const lines = teacherForcedLines(d);
    expect(lines[2]).toBe('  ▄·█·  (steps 1–4; 2 measured, · = no logits recorded on both sides, scaled to the peak)');
  });

  it('small drift at the measured steps: equivalent "at every measured step", the unrecorded ones not counted as 0', () => {
    const a = [step(1, PLAIN), bare(2), bare(3), step(4, PLAIN)];
    const b = [step(1, shifted(0.0625)), bare(2), bare(3), step(4, shifted(0.0625))];
    const d = teacherForcedDrift(a, b, 0.1);
    expect(d.curve).toEqual([0.0625, null, null, 0.0625]);
    // Were the gaps 0s, the quarters would be 0.0625 and 0.0625 still, but the slope would not be 0.
    expect(d.trend).toMatchObject({ slopePerStep: 0, firstQuarterMean: 0.0625, lastQuarterMean: 0.0625 });
    expect(d.numericallyEquivalent).toBe(true);
    expect(teacherForcedLines(d).at(-1)).toBe('Numerically equivalent under teacher forcing: no real would-flip, drift within the near-tie gap 0.1 at every measured step');
  });

  it('no step measured: not-measured trend, no peak, not numerically equivalent, and the lines say why', () => {
    const d = teacherForcedDrift([bare(1), bare(2)], [bare(1), bare(2)], 0.1);
    expect(d.curve).toEqual([null, null]);
    expect(d).toMatchObject({ measuredSteps: 0, peak: null, numericallyEquivalent: false });
    expect(d.trend.direction).toBe('not-measured');
    const lines = teacherForcedLines(d);
    expect(lines[1]).toBe('Drift: not measured: no step of the 2 has logit statistics recorded on both sides');
    expect(lines.at(-1)).toBe('Not numerically equivalent under teacher forcing: no drift was measured');
  });

  it('rows recorded on both sides but sharing no statistic are not measured either', () => {
    const a: TraceStep[] = [{ step: 1, codes: [7, 1], logits: { mean: 0 } }];
    const b: TraceStep[] = [{ step: 1, codes: [7, 1], logits: { std: 1 } }];
    expect(teacherForcedDrift(a, b, 0.1).curve).toEqual([null]);
  });
});

describe('driftTrend and sparkline', () => {
  it('shrinking when the last quarter is under half the first; eight steps make quarters of two', () => {
    // first quarter mean (1 + 0.5)/2 = 0.75, last (0.25 + 0.125)/2 = 0.1875 < 0.375.
    expect(driftTrend([1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.125])).toMatchObject({ firstQuarterMean: 0.75, lastQuarterMean: 0.1875, direction: 'shrinking' });
  });

  it('bars scale to the peak (7 steps of 8 levels), bucket by maximum, ✕ for NaN', () => {
    expect(sparkline([0, 0.25, 0.5, 0.125])).toBe('▁▄█▂');
    // 10 values in 4 buckets of ceil(10/4) = 3: maxima 0.5, 1, 0.25, 0 (of the last value alone).
    expect(sparkline([0, 0.5, 0.25, 1, 0, 0, 0.25, 0, 0, 0], 4)).toBe('▄█▂▁');
    expect(sparkline([0, NaN, 1])).toBe('▁✕█');
  });
});
