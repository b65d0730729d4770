import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import { hann, powerSpectrum, powerSpectrumJs } from '../../../../electron/common/analysis/power-spectrum.js';
import { spectraArena, spectraMemory } from '../../../../electron/common/analysis/spectra-memory.js';
import { uniform } from '../../../helpers/signals.js';

beforeAll(() => initFft());

// The kernels (wasm/power-spectrum.wat) do the JavaScript's operations in the same order on IEEE doubles,
// so the spectra and the loudest bin must be the JavaScript's to the last bit. Into the arena the kernels
// run; into a JavaScript array the JavaScript loops.
describe('powerSpectrum in WebAssembly SIMD', () => {
  it.each([
    [1024, 1024],
    [1024, 1023], // a short last frame: zero-padded, an odd tail in the window loop
    [1024, 5],
    [2048, 2048],
    [32, 17],
    [16384, 16384],
  ])('frame %i with %i samples: bit for bit as the JavaScript', (size, count) => {
    expect(spectraMemory()).not.toBeNull();
    const next = uniform(size + count);
    const x = Float32Array.from({ length: count + 9 }, () => next() - 0.5);
    x[11] = 3e38; // a bin that overflows to infinity
    const window = hann(size);
    const bins = size / 2 + 1;
    const arena = spectraArena(bins + 1);
    arena.fill(-1);
    const inKernel = powerSpectrum(x, 9, count, window, arena, 1);
    const js = new Float64Array(bins + 1).fill(-1);
    const inJs = powerSpectrumJs(x, 9, count, window, js, 1);
    expect(Object.is(inKernel, inJs), `loudest ${inKernel} vs ${inJs}`).toBe(true);
    expect(Array.from(arena.subarray(0, bins + 1))).toEqual(Array.from(js));
    expect(js.subarray(1).some((p) => p !== js[1])).toBe(true);
  });

  it.each([
    [30.8, 31], // the odd last bin before Nyquist, outside the pairs
    [29.9, 30],
    [2.1, 2],
  ])('finds the loudest bin of a tone at %f bins in a 64-point frame at %i', (tone, bin) => {
    const window = hann(64);
    const x = Float32Array.from({ length: 64 }, (_, i) => Math.cos((2 * Math.PI * tone * i) / 64));
    const arena = spectraArena(33);
    const loudest = powerSpectrum(x, 0, 64, window, arena, 0);
    expect(loudest).toBe(powerSpectrumJs(x, 0, 64, window, new Float64Array(33), 0));
    expect(arena.indexOf(loudest)).toBe(bin);
  });

  it('keeps the loudest bin apart from a NaN-free maximum when a frame is silent', () => {
    const window = hann(64);
    const arena = spectraArena(33);
    expect(powerSpectrum(new Float32Array(64), 0, 64, window, arena, 0)).toBe(0);
    expect(Array.from(arena.subarray(0, 33)).every((p) => p === 0)).toBe(true);
  });
});
