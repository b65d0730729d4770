import { describe, expect, it } from 'vitest';
import {
  mcdFrame,
  mcdFrameJs,
  melLogAmplitude,
  melPlan,
  MEL_BANDS,
} from '../../../../electron/common/analysis/mel-cepstrum.js';
import { simdMelBands } from '../../../../electron/common/analysis/mel-simd.js';
import { spectraArena } from '../../../../electron/common/analysis/spectra-memory.js';

// The kernel does the JavaScript loop's operations in the same order on IEEE doubles, so the mel log
// amplitudes must be the same to the last bit with it and without it.
describe('mel band sums in WebAssembly SIMD', () => {
  it.each([
    [1024, 24000],
    [2048, 48000],
    [32, 800], // bands narrower than a bin: single-bin bands
    [16384, 384000], // the largest frame the kernels take
  ])(
    'frame %i at %i Hz: bit for bit as the JavaScript loop, bins near the floor and NaN included',
    (size, rate) => {
      const plan = melPlan(size, rate);
      expect(plan.simd).not.toBeNull();
      const bins = size / 2 + 1;
      const at = 7;
      // In the spectra arena, where spectralDistances keeps its spectra and the kernel reads them.
      const power = spectraArena(at + bins).subarray(0, at + bins);
      power.fill(0);
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let k = 0; k < bins; k++) power[at + k] = Math.pow(10, -14 * random());
      power[at + 3] = Number.NaN;
      power[at + bins - 1] = 0;
      const floor = 1e-9;
      const withSimd = new Float64Array(MEL_BANDS);
      const withoutSimd = new Float64Array(MEL_BANDS);
      expect(plan.simd?.logAmplitudes(power, at, floor, 0.5, new Float64Array(MEL_BANDS))).toBe(true);
      melLogAmplitude(plan, power, at, floor, withSimd);
      melLogAmplitude(plan, power.slice(), at, floor, withoutSimd); // a copy outside the arena: the JavaScript loop
      expect(withSimd.some((v) => v !== withSimd[0])).toBe(true);
      expect(Array.from(withSimd)).toEqual(Array.from(withoutSimd));
    },
  );

  // A silent frame under a zero floor: every band sums to 0, so each reads its first bin through the floor
  // (the edge rule), and ½·ln 0 is −∞ through Math.log; a loud bin keeps its band finite.
  it('a silent frame under a zero floor: the edge rule and ln 0, as the JavaScript loop', () => {
    const plan = melPlan(1024, 24000);
    const bins = 513;
    const power = spectraArena(bins).subarray(0, bins);
    power.fill(0);
    power[200] = 1e-3;
    const withSimd = new Float64Array(MEL_BANDS);
    const withoutSimd = new Float64Array(MEL_BANDS);
    expect(plan.simd?.logAmplitudes(power, 0, 0, 0.5, withSimd)).toBe(true);
    melLogAmplitude(plan, power.slice(), 0, 0, withoutSimd);
    expect(withSimd.filter((v) => v === -Infinity).length).toBeGreaterThan(70);
    expect(withSimd.some(Number.isFinite)).toBe(true);
    expect(Array.from(withSimd)).toEqual(Array.from(withoutSimd));
  });

  // A band whose weights are all 0 (its bins on its edges) sums to 0 and reads its first bin through the
  // floor instead; real plans seldom have one, so this plan zeroes three bands' weights.
  it('bands of zero weight read their first bin through the floor, as the JavaScript loop', () => {
    const real = melPlan(1024, 24000);
    const weights = real.weights.slice();
    for (const m of [0, 17, 79]) weights.fill(0, real.weightAt[m], real.weightAt[m] + real.counts[m]);
    const bands = { starts: real.starts, counts: real.counts, weightAt: real.weightAt, weights };
    const plan = { ...real, weights, simd: simdMelBands(bands, 513) };
    const power = spectraArena(513).subarray(0, 513);
    for (let k = 0; k < 513; k++) power[k] = 1e-6 * (1 + (k % 7));
    power[real.starts[17]] = 1e-12; // under the floor: band 17 reads the floor
    const floor = 1e-9;
    const withSimd = new Float64Array(MEL_BANDS);
    const withoutSimd = new Float64Array(MEL_BANDS);
    expect(plan.simd?.logAmplitudes(power, 0, floor, 0.5, withSimd)).toBe(true);
    melLogAmplitude(plan, power.slice(), 0, floor, withoutSimd);
    expect(withSimd[0]).toBeCloseTo(0.5 * Math.log(power[real.starts[0]]), 12);
    expect(withSimd[17]).toBeCloseTo(0.5 * Math.log(floor), 12);
    expect(Array.from(withSimd)).toEqual(Array.from(withoutSimd));
  });
});

// wasm/mel-cepstral-distortion.wat does mcdFrame's operations in its order on IEEE doubles: the same value.
describe('mel-cepstral distortion in WebAssembly SIMD', () => {
  it('bit for bit as the JavaScript, over random frames and odd values', () => {
    const plan = melPlan(1024, 24000);
    const arena = spectraArena(2 * MEL_BANDS + 5);
    const logA = arena.subarray(3, 3 + MEL_BANDS);
    const logB = arena.subarray(3 + MEL_BANDS, 3 + 2 * MEL_BANDS);
    let seed = 99;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 200; round++) {
      for (let m = 0; m < MEL_BANDS; m++) {
        logA[m] = -20 * random();
        logB[m] = logA[m] + (round % 3 === 0 ? 0.001 : 2) * (random() - 0.5);
      }
      if (round === 7) logA[5] = -Infinity;
      if (round === 8) logB[79] = Number.NaN;
      const inKernel = mcdFrame(plan, logA, logB);
      const inJs = mcdFrameJs(plan, logA.slice(), logB.slice());
      expect(Object.is(inKernel, inJs), `round ${round}: ${inKernel} vs ${inJs}`).toBe(true);
    }
    expect(mcdFrame(plan, logA, logA)).toBe(0);
  });
});
