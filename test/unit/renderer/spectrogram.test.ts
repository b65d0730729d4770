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
