import { describe, expect, it } from 'vitest';
import type { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { deltaRange, logFraction, stepDeltas } from '../../../../electron/common/draw/step-delta.js';

const stats = (mean: number | string, max = 9, std = 2, min = -5) => ({ mean, std, min, max, argmax: 1, top5: [] });
const step = (n: number, a: ReturnType<typeof stats> | null, b: ReturnType<typeof stats> | null) =>
  ({ step: n, a, b, codesA: [1], codesB: [1], stage: null, maxStatDiff: null }) as Divergence['steps'][number];

describe('per-step |Δ| of the logit statistics', () => {
  it('is the largest |a − b| over mean, std, min and max; a NaN side is marked, a missing one named', () => {
    const d = stepDeltas({
      steps: [
        step(1, stats(0.5), stats(0.5)),
        // The case: a step-2 difference of 0.019 in the max, invisible on a raw-logit chart.
        step(2, stats(0.5, 9), stats(0.5, 9.019)),
        step(3, stats(0.5), stats('NaN')),
        step(4, stats(0.5), null),
      ],
    });
    expect(d[0].delta).toBe(0);
    expect(d[1].delta).toBeCloseTo(0.019, 12);
    expect(d[2]).toMatchObject({ delta: null, nonFinite: 'B NaN' });
    expect(d[3]).toMatchObject({ delta: null, missing: 'B' });
  });

  it('puts 0.019 well up a log scale that spans a decade below the smallest and above the largest |Δ|', () => {
    const deltas = stepDeltas({ steps: [step(1, stats(0.5), stats(0.5 + 1e-6)), step(2, stats(0.5, 9), stats(0.5, 9.019))] });
    const range = deltaRange(deltas);
    expect(range.min).toBeLessThanOrEqual(1e-6);
    expect(range.max).toBeGreaterThanOrEqual(0.019);
    // On a linear axis up to 0.019 a 1e-6 bar is 0.005 % of the height; on the log axis it is clearly above 0.
    const small = logFraction(1e-6, range);
    const big = logFraction(0.019, range);
    expect(small).toBeGreaterThan(0.05);
    expect(big - small).toBeGreaterThan(0.4);
  });

  it('widens the scale to hold the tolerance, so its dashed line is drawn on it', () => {
    // |Δ| 0.1 to 2 alone spans 1e-2..1e1; a tolerance of 1e-3 below that moves the bottom to 1e-4 (half a decade under it, floored).
    const deltas = stepDeltas({ steps: [step(1, stats(0.5), stats(0.6)), step(2, stats(0.5), stats(2.5))] });
    expect(deltaRange(deltas)).toEqual({ min: 1e-2, max: 10 });
    const range = deltaRange(deltas, 1e-3);
    expect(range.max).toBe(10);
    // 10 ** -4 in floating point: equal to 1e-4 within a few ulps.
    expect(range.min / 1e-4).toBeCloseTo(1, 12);
    expect(logFraction(1e-3, range)).toBeGreaterThan(0);
    // Without any non-zero |Δ| (identical runs) the tolerance alone makes the scale: its line is still drawn.
    const alone = deltaRange([], 1e-3);
    expect(logFraction(1e-3, alone)).toBeGreaterThan(0);
    expect(logFraction(1e-3, alone)).toBeLessThan(1);
  });
});
