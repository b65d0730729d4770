import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import { frameSize, SpectralSession, spectralDistances } from '../../../../electron/common/analysis/spectral.js';
import { speechLike } from '../../../helpers/signals.js';

beforeAll(() => initFft());

const pair = (a: Float32Array, b: Float32Array) => ({
  a: { signal: a, start: 0 },
  b: { signal: b, start: 0 },
  length: Math.min(a.length, b.length),
});

describe('spectralDistances', () => {
  const fs = 24000;
  const a = speechLike(2, fs, 11);

  it('uses ~40 ms power-of-two frames', () => {
    expect([frameSize(24000), frameSize(48000), frameSize(16000)]).toEqual([1024, 2048, 512]);
  });

  // A pure gain g scales every power bin by g², and each side's floor (its loudest bin − 80 dB) with it,
  // so LSD = |20·log10 g| in every frame (±0.01 dB: float32 FFT) and only c0 moves, so MCD = 0 (±0.001 dB).
  it('a pure gain: LSD = |20·log10 g|, MCD = 0', () => {
    const [d] = spectralDistances(
      [
        pair(
          a,
          a.map((v) => v * 0.5),
        ),
      ],
      fs,
    );
    expect(Math.abs(d.lsdDb - 20 * Math.log10(2))).toBeLessThan(0.01);
    expect(d.mcdDb).toBeLessThan(1e-3);
  });

  it('identical signals: 0 and 0; a spectral change raises both', () => {
    const [same] = spectralDistances([pair(a, a.slice())], fs);
    expect(same).toEqual({ lsdDb: 0, mcdDb: 0 });
    // A one-pole low-pass changes the spectral shape, which the cepstrum (c1..c24) sees.
    const lowpassed = new Float32Array(a.length);
    for (let i = 1; i < a.length; i++) lowpassed[i] = 0.7 * lowpassed[i - 1] + 0.3 * a[i];
    const [d] = spectralDistances([pair(a, lowpassed)], fs);
    expect(d.mcdDb).toBeGreaterThan(1);
    expect(d.lsdDb).toBeGreaterThan(1);
  });

  it('several pairs at once give the same answers as one at a time', () => {
    const b = a.map((v, i) => v + 0.01 * Math.sin(i));
    const together = spectralDistances(
      [pair(a, b), { ...pair(a, b), b: { signal: b, start: 5 }, length: a.length - 5 }],
      fs,
    );
    const alone = spectralDistances(
      [{ ...pair(a, b), b: { signal: b, start: 5 }, length: a.length - 5 }],
      fs,
    );
    expect(together[1]).toEqual(alone[0]);
  });

  // Frames past the spectra cache are transformed again in the second pass: the same numbers, bit for
  // bit, whether a frame was kept or not (here no frame, then about half of one span's frames, are kept).
  it('the same distances whatever the spectra cache holds', () => {
    const b = a.map((v, i) => 0.9 * v + 0.001 * Math.sin(i));
    const pairs = [pair(a, b), { ...pair(a, b), b: { signal: b, start: 3 }, length: a.length - 3 }];
    const kept = spectralDistances(pairs, fs);
    const bytesPerFrame = (frameSize(fs) / 2 + 1) * 8;
    expect(spectralDistances(pairs, fs, 0)).toEqual(kept);
    expect(spectralDistances(pairs, fs, 40 * bytesPerFrame)).toEqual(kept);
  });

  // A thread has one spectra arena: a comparison that starts while another awaits its worker must not
  // write into the first one's kept spectra (the second gets storage of its own: the same numbers).
  it('two sessions in flight on one thread give the numbers each gives alone', () => {
    const b = a.map((v, i) => 0.8 * v + 0.002 * Math.sin(i / 3));
    const c = a.map((v, i) => v + 0.02 * Math.cos(i / 5));
    const aligned = { ...pair(a, b), b: { signal: b, start: 9 }, length: a.length - 9 };
    const alone = [spectralDistances([pair(a, b), aligned], fs), spectralDistances([pair(a, c)], fs)];
    for (let round = 0; round < 2; round++) {
      const first = new SpectralSession(fs);
      first.add([pair(a, b)]);
      const second = new SpectralSession(fs);
      second.add([pair(a, c)]);
      expect(second.distances()).toEqual(alone[1]);
      first.add([aligned]);
      expect(first.distances()).toEqual(alone[0]);
    }
  });
});
