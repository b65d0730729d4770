import { describe, expect, it } from 'vitest';
import { fftInPlace } from '../../../renderer/src/lib/fft-radix2.js';
import { computeSpectrogram } from '../../../renderer/src/lib/spectrogram.js';

describe('renderer FFT and spectrogram (pure)', () => {
  it('FFT of a cosine at bin 3 puts n/2 in bins 3 and n−3 (DFT definition)', () => {
    const n = 16;
    const re = Float64Array.from({ length: n }, (_, i) => Math.cos((2 * Math.PI * 3 * i) / n));
    const im = new Float64Array(n);
    fftInPlace(re, im);
    for (let k = 0; k < n; k++) {
      const mag = Math.hypot(re[k], im[k]);
      expect(mag).toBeCloseTo(k === 3 || k === 13 ? n / 2 : 0, 9);
    }
  });

  it('matches the direct DFT sum X[k] = Σ x[j]·e^(−2πijk/n) on arbitrary input', () => {
    // Deterministic input (a 32-bit LCG); float64 radix-2 error grows ~log2(n)·eps, so 1e-9 absolute on
    // values of order sqrt(n) is loose by orders of magnitude yet catches any wrong twiddle or swap.
    const n = 64;
    let state = 12345;
    const rnd = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const xr = Array.from({ length: n }, rnd);
    const xi = Array.from({ length: n }, rnd);
    const re = Float64Array.from(xr);
    const im = Float64Array.from(xi);
    fftInPlace(re, im);
    for (let k = 0; k < n; k++) {
      let sr = 0;
      let si = 0;
      for (let j = 0; j < n; j++) {
        const a = (-2 * Math.PI * j * k) / n;
        sr += xr[j] * Math.cos(a) - xi[j] * Math.sin(a);
        si += xr[j] * Math.sin(a) + xi[j] * Math.cos(a);
      }
      expect(Math.abs(re[k] - sr)).toBeLessThan(1e-9);
      expect(Math.abs(im[k] - si)).toBeLessThan(1e-9);
    }
  });

  it('refuses a size that is not a power of two', () => {
    expect(() => fftInPlace(new Float64Array(12), new Float64Array(12))).toThrow(/12 is not a power of two/);
  });

  it('a full-scale sine lands in its bin near 0 dB (255), silence at the floor (0)', () => {
    const rate = 8000;
    const fft = 256;
    // 1000 Hz at 8 kHz with a 256-point FFT is bin 32 exactly.
    const x = Float32Array.from({ length: rate }, (_, i) => Math.sin((2 * Math.PI * 1000 * i) / rate));
    const spec = computeSpectrogram(x, rate, fft, 50);
    expect(spec.columns).toBe(50);
    const col = 10 * spec.bins;
    expect(spec.data[col + 32]).toBeGreaterThanOrEqual(253);
    expect(spec.data[col + 100]).toBeLessThan(60);
    const silent = computeSpectrogram(new Float32Array(4000), rate, fft, 10);
    expect(Math.max(...silent.data)).toBe(0);
  });
});
