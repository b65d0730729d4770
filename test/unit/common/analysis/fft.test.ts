import { beforeAll, describe, expect, it } from 'vitest';
import { goodFftSize, initFft, realFft } from '../../../../electron/common/analysis/fft.js';
import { whiteNoise } from '../../../helpers/signals.js';

beforeAll(() => initFft());

describe('realFft (PFFFT)', () => {
  // Reference: the DFT by its definition in Float64. PFFFT is float32, so agreement is to ~1e-5 of the
  // spectrum's scale (LIBRARIES.md measured ~1.5e-6 relative).
  it.each([32, 96, 480])('matches a direct DFT at n = %i and inverts to n·x', (n) => {
    const x = whiteNoise(n, 1, n);
    const fft = realFft(n);
    const spectrum = new Float32Array(n);
    fft.forward(x, spectrum);
    const bin = (k: number): [number, number] => {
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        re += x[i] * Math.cos((2 * Math.PI * k * i) / n);
        im -= x[i] * Math.sin((2 * Math.PI * k * i) / n);
      }
      return [re, im];
    };
    const tolerance = 1e-5 * Math.sqrt(n) * 4;
    expect(Math.abs(spectrum[0] - bin(0)[0])).toBeLessThan(tolerance);
    expect(Math.abs(spectrum[1] - bin(n / 2)[0])).toBeLessThan(tolerance);
    for (let k = 1; k < n / 2; k++) {
      const [re, im] = bin(k);
      expect(Math.abs(spectrum[2 * k] - re)).toBeLessThan(tolerance);
      expect(Math.abs(spectrum[2 * k + 1] - im)).toBeLessThan(tolerance);
    }
    const back = new Float32Array(n);
    fft.inverse(spectrum, back);
    for (let i = 0; i < n; i++) expect(Math.abs(back[i] / n - x[i])).toBeLessThan(1e-5);
  });

  it('caches one plan per size', () => {
    expect(realFft(64)).toBe(realFft(64));
  });

  // PFFFT real transforms need n = 32·2^a·3^b·5^c.
  it('goodFftSize picks the smallest accepted size', () => {
    expect(goodFftSize(1)).toBe(32);
    expect(goodFftSize(33)).toBe(64);
    expect(goodFftSize(1000)).toBe(1024);
    expect(goodFftSize(1441200)).toBe(1474560); // 32·3²·5·2^10
    expect(goodFftSize(96)).toBe(96);
  });
});
