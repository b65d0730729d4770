import { describe, expect, it } from 'vitest';
import {
  accumulateKWeightedEnergy,
  biquadGain,
  kWeightingCoefficients,
} from '../../../../electron/common/analysis/k-weighting.js';
import { integratedLoudness, shortTermLoudness } from '../../../../electron/common/analysis/loudness.js';
import { rmsDbfs, samplePeakDbfs } from '../../../../electron/common/analysis/levels.js';
import { sine, speechLike } from '../../../helpers/signals.js';

const stereo = (x: Float32Array): Float32Array[] => [x, x];
const concat = (...parts: Float32Array[]): Float32Array => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('K-weighting coefficients', () => {
  // ITU-R BS.1770-4 Annex 1, Table 1 (pre-filter) and Table 2 (RLB high-pass), 48 kHz. The table
  // prints 14 decimals; libebur128's analogue prototype reproduces them to ~1e-9, hence the tolerance.
  it('reproduce BS.1770-4 Tables 1 and 2 at 48 kHz', () => {
    const { shelf, highpass } = kWeightingCoefficients(48000);
    const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-8);
    close(shelf.b0, 1.53512485958697);
    close(shelf.b1, -2.69169618940638);
    close(shelf.b2, 1.19839281085285);
    close(shelf.a1, -1.69065929318241);
    close(shelf.a2, 0.73248077421585);
    expect([highpass.b0, highpass.b1, highpass.b2]).toEqual([1, -2, 1]);
    close(highpass.a1, -1.99004745483398);
    close(highpass.a2, 0.99007225036621);
  });

  // The shelf is derived for each rate, so its analogue response (+4 dB plateau, ~+0.69 dB at 1 kHz)
  // is kept at 24 and 44.1 kHz: within 0.05 dB of the 48 kHz filter at 1 kHz (warping residue).
  it.each([24000, 44100, 16000])('keep the 1 kHz response at %i Hz', (rate) => {
    const at48 = kWeightingCoefficients(48000);
    const here = kWeightingCoefficients(rate);
    const db = (k: typeof here) =>
      20 * Math.log10(biquadGain(k.shelf, 1000, rate) * biquadGain(k.highpass, 1000, rate));
    const db48 =
      20 * Math.log10(biquadGain(at48.shelf, 1000, 48000) * biquadGain(at48.highpass, 1000, 48000));
    expect(Math.abs(db(here) - db48)).toBeLessThan(0.05);
    expect(Math.abs(db48 - 0.69)).toBeLessThan(0.02);
  });
});

describe('integratedLoudness (EBU Tech 3341 minimum requirements, ±0.1 LU)', () => {
  const fs = 48000;
  // Tech 3341 Table 1 case 1: stereo 1 kHz sine at −23 dBFS, 20 s → −23.0 LUFS.
  it.each([48000, 44100, 24000])('case 1 at %i Hz', (rate) => {
    expect(integratedLoudness(stereo(sine(1000, -23, 20, rate)), rate)).toBeCloseTo(-23, 1);
  });
  // Case 2: the same at −33 dBFS → −33.0 LUFS.
  it('case 2', () => {
    expect(Math.abs(integratedLoudness(stereo(sine(1000, -33, 20, fs)), fs) + 33)).toBeLessThanOrEqual(0.1);
  });
  // Case 3: −36 / −23 / −36 dBFS for 10 / 60 / 10 s → −23.0 LUFS (the relative gate drops the −36 parts).
  it('case 3 (relative gate)', () => {
    const x = concat(sine(1000, -36, 10, fs), sine(1000, -23, 60, fs), sine(1000, -36, 10, fs));
    expect(Math.abs(integratedLoudness(stereo(x), fs) + 23)).toBeLessThanOrEqual(0.1);
  });
  // Case 4: −72 / −36 / −23 / −36 / −72 dBFS for 10 / 10 / 60 / 10 / 10 s → −23.0 (both gates).
  it('case 4 (absolute and relative gates)', () => {
    const x = concat(
      sine(1000, -72, 10, fs),
      sine(1000, -36, 10, fs),
      sine(1000, -23, 60, fs),
      sine(1000, -36, 10, fs),
      sine(1000, -72, 10, fs),
    );
    expect(Math.abs(integratedLoudness(stereo(x), fs) + 23)).toBeLessThanOrEqual(0.1);
  });
  // Case 5: −26 / −20 / −26 dBFS for 20 / 20.1 / 20 s → −23.0 LUFS.
  it('case 5', () => {
    const x = concat(sine(1000, -26, 20, fs), sine(1000, -20, 20.1, fs), sine(1000, -26, 20, fs));
    expect(Math.abs(integratedLoudness(stereo(x), fs) + 23)).toBeLessThanOrEqual(0.1);
  });

  it('is −Infinity for digital silence and for under 400 ms of audio, never NaN', () => {
    expect(integratedLoudness(stereo(new Float32Array(fs * 5)), fs)).toBe(-Infinity);
    expect(integratedLoudness([sine(1000, -10, 0.39, fs)], fs)).toBe(-Infinity);
    expect(integratedLoudness([new Float32Array(0)], fs)).toBe(-Infinity);
  });

  // Mono is one channel of weight 1: 3.01 dB (10·log10 2) below the same sine on two channels.
  it('sums channel powers: mono is 10·log10(2) below stereo', () => {
    const x = sine(1000, -23, 10, fs);
    expect(integratedLoudness(stereo(x), fs) - integratedLoudness([x], fs)).toBeCloseTo(
      10 * Math.log10(2),
      3,
    );
  });

  // BS.1770-4 Table 3: a surround channel weighs 1.41 (+1.49 dB); the 5.1 LFE weighs 0.
  it('weights surround channels 1.41 and drops the LFE', () => {
    const x = sine(1000, -23, 10, fs);
    const z = new Float32Array(x.length);
    const front = integratedLoudness([x, z, z, z, z], fs);
    expect(integratedLoudness([z, z, z, z, x], fs) - front).toBeCloseTo(10 * Math.log10(1.41), 3);
    expect(integratedLoudness([z, z, z, x, z, z], fs)).toBe(-Infinity);
  });

  it('refuses channels of different lengths, naming them', () => {
    expect(() => integratedLoudness([new Float32Array(10), new Float32Array(9)], fs)).toThrow(
      /channel 1 has 9/,
    );
  });
});

describe('shortTermLoudness', () => {
  // A steady −23 dBFS stereo sine: every 3 s window reads −23.0 LUFS (Tech 3341, ±0.1 LU); one value per 100 ms.
  it('is flat at the integrated value for a steady sine, 10 values per second', () => {
    const st = shortTermLoudness(stereo(sine(1000, -23, 10, 24000)), 24000);
    expect(st.length).toBe(100);
    for (const v of st) expect(Math.abs(v + 23)).toBeLessThanOrEqual(0.1);
  });
  it('reads −Infinity in silence and follows a step after 3 s', () => {
    const x = concat(new Float32Array(48000 * 4), sine(1000, -23, 4, 48000));
    const st = shortTermLoudness(stereo(x), 48000);
    expect(st[20]).toBe(-Infinity);
    expect(Math.abs(st[79] + 23)).toBeLessThanOrEqual(0.1);
  });
});

describe('levels', () => {
  // Sample peak of a 1 kHz sine at 48 kHz hits the crest exactly (48 samples a cycle); RMS = peak − 3.0103 dB.
  it.each([-20, -40])('a %i dBFS sine: peak by amplitude, RMS by formula', (level) => {
    const x = sine(1000, level, 1, 48000);
    expect(samplePeakDbfs(x)).toBeCloseTo(level, 4);
    expect(rmsDbfs(x)).toBeCloseTo(level - 10 * Math.log10(2), 3);
  });
  it('silence is −Infinity', () => {
    expect(samplePeakDbfs(new Float32Array(100))).toBe(-Infinity);
    expect(rmsDbfs(new Float32Array(100))).toBe(-Infinity);
  });
});

describe('accumulateKWeightedEnergy: two halves side by side', () => {
  // Reference: one sequential transposed-direct-form-II pass (what the function did before it split
  // the segments in two), written out here.
  function sequential(x: Float32Array, rate: number, bounds: Int32Array): Float64Array {
    const { shelf: p, highpass: r } = kWeightingCoefficients(rate);
    const out = new Float64Array(bounds.length - 1);
    let p1 = 0,
      p2 = 0,
      r1 = 0,
      r2 = 0;
    for (let s = 0; s < out.length; s++) {
      for (let i = bounds[s]; i < bounds[s + 1]; i++) {
        const u = p.b0 * x[i] + p1;
        p1 = p.b1 * x[i] - p.a1 * u + p2;
        p2 = p.b2 * x[i] - p.a2 * u;
        const y = r.b0 * u + r1;
        r1 = r.b1 * u - r.a1 * y + r2;
        r2 = r.b2 * u - r.a2 * y;
        out[s] += y * y;
      }
    }
    return out;
  }

  // The second half starts settlingSamples before its first segment from zero state; its energies
  // agree with the sequential pass to rounding: 1e-12 relative (seen: 1.4e-14).
  it.each([24000, 44100, 192000])(
    'at %i Hz, 31 segments of 100 ms, a loud start then near-silence',
    (rate) => {
      const x = speechLike(3.1, rate, 21);
      for (let i = Math.floor(x.length / 2) - 100; i < x.length; i++) x[i] *= 1e-4;
      const bounds = Int32Array.from({ length: 32 }, (_, s) => Math.round((s * rate) / 10));
      const found = new Float64Array(31);
      accumulateKWeightedEnergy(x, kWeightingCoefficients(rate), 1, bounds, found);
      const want = sequential(x, rate, bounds);
      for (let s = 0; s < 31; s++) expect(Math.abs(found[s] - want[s]) / want[s]).toBeLessThan(1e-12);
    },
  );
});
