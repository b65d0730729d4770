import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import { crossCorrelate } from '../../../../electron/common/analysis/xcorr.js';
import { delayedCopy, speechLike, whiteNoise } from '../../../helpers/signals.js';

beforeAll(() => initFft());

/** Σ a[i]·b[i+lag] over i, i+lag in [0, length), term by term in Float64: the definition. */
function direct(a: Float32Array, b: Float32Array, length: number, lag: number): number {
  let s = 0;
  for (let i = Math.max(0, -lag); i < Math.min(length, length - lag); i++) s += a[i] * b[i + lag];
  return s;
}

describe('crossCorrelate: the peak and the parabola from exact sums', () => {
  // The lag is searched by FFT; r at the lag and its neighbours is then summed sample by sample, so the
  // peak and the fractional lag equal the definition's, to the last bit, wherever the lag falls.
  it.each([
    ['inside the range', 37, 200],
    ['next to the upper edge', 199, 200],
    ['next to the lower edge', -199, 200],
  ])('lag %s (%i of ±%i)', (_, delay, maxLag) => {
    const x = speechLike(0.5, 24000, 5);
    const y = delayedCopy(x, Math.abs(delay), 0.7, whiteNoise(x.length, 1e-3, 6));
    const [a, b] = delay >= 0 ? [x, y] : [y, x];
    const length = a.length;
    const xc = crossCorrelate(a, b, length, maxLag);
    expect(xc.lag).toBe(delay);
    const energy = direct(a, a, length, 0) * direct(b, b, length, 0);
    expect(xc.peak).toBe(direct(a, b, length, delay) / Math.sqrt(energy));
    const [y0, y1, y2] = [-1, 0, 1].map((d) => Math.abs(direct(a, b, length, delay + d)));
    const curvature = y0 - 2 * y1 + y2;
    expect(curvature).toBeLessThan(0);
    expect(xc.fractionalLag).toBe(delay + Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / curvature)));
  });

  it('three samples: every lag sums one or two terms', () => {
    const a = Float32Array.of(0.1, 0.9, 0.2);
    const b = Float32Array.of(0.2, 0.1, 0.8);
    const xc = crossCorrelate(a, b, 3, 2);
    expect(xc.lag).toBe(1);
    expect(xc.peak).toBe(direct(a, b, 3, 1) / Math.sqrt(direct(a, a, 3, 0) * direct(b, b, 3, 0)));
  });

  it('a side of zeros: no peak and lag 0, as its energy is 0', () => {
    const x = speechLike(0.1, 24000, 5);
    const silent = new Float32Array(x.length);
    for (const [a, b] of [
      [x, silent],
      [silent, x],
    ]) {
      expect(crossCorrelate(a, b, x.length, 100)).toEqual({ peak: NaN, lag: 0, fractionalLag: 0, length: x.length });
    }
  });
});
