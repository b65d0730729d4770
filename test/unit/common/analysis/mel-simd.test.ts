import { describe, expect, it } from 'vitest';
import { melLogAmplitude, melPlan, MEL_BANDS } from '../../../../electron/common/analysis/mel-cepstrum.js';
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
      expect(plan.simd?.run(power, at, floor, new Float64Array(MEL_BANDS))).toBe(true);
      melLogAmplitude(plan, power, at, floor, withSimd);
      melLogAmplitude(plan, power.slice(), at, floor, withoutSimd); // a copy outside the arena: the JavaScript loop
      expect(withSimd.some((v) => v !== withSimd[0])).toBe(true);
      expect(Array.from(withSimd)).toEqual(Array.from(withoutSimd));
    },
  );
});
