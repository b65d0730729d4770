import { describe, expect, it } from 'vitest';
import {
  scaledLogs,
  scaledLogsInMemory,
  sumSquaredLogRatios,
  sumSquaredLogRatiosJs,
} from '../../../../electron/common/analysis/log-ratio.js';
import { spectraArena, spectraMemory } from '../../../../electron/common/analysis/spectra-memory.js';
import { uniform } from '../../../helpers/signals.js';

// The kernel (wasm/log-ratio.wat) does the JavaScript's operations in the same order on IEEE doubles, so
// its sums must be the JavaScript's to the last bit. Spectra in the arena take the kernel; copies of them
// in JavaScript arrays take the JavaScript loops.
describe('sumSquaredLogRatios in WebAssembly SIMD', () => {
  const bothWays = (a: Float64Array, floorA: number, b: Float64Array, floorB: number, count: number) => {
    expect(a.buffer).toBe(spectraMemory()?.buffer);
    const inKernel = sumSquaredLogRatios(a, 0, floorA, b, 0, floorB, count);
    const inJs = sumSquaredLogRatiosJs(a.slice(), 0, floorA, b.slice(), 0, floorB, count);
    expect(sumSquaredLogRatios(a.slice(), 0, floorA, b.slice(), 0, floorB, count)).toBe(inJs);
    return { inKernel, inJs };
  };

  it.each([513, 1025, 2, 1])(
    '%i bins under floors, NaN bins among them: bit for bit as the JavaScript',
    (count) => {
      const next = uniform(count + 1);
      const arena = spectraArena(2 * count + 3);
      const a = arena.subarray(1, 1 + count); // an odd offset: loads not 16-byte aligned
      const b = arena.subarray(1 + count, 1 + 2 * count);
      for (let k = 0; k < count; k++) {
        a[k] = k % 53 === 3 ? NaN : Math.pow(10, -16 * next());
        b[k] = Math.pow(10, -16 * next());
      }
      for (const [floorA, floorB] of [
        [1e-9, 1e-7],
        [-Infinity, -Infinity],
        [1e-14, 0],
      ]) {
        const { inKernel, inJs } = bothWays(a, floorA, b, floorB, count);
        if (floorA > 0) expect(Number.isFinite(inKernel)).toBe(true);
        expect(Object.is(inKernel, inJs), `${inKernel} vs ${inJs} (floors ${floorA}, ${floorB})`).toBe(true);
      }
    },
  );

  it.each([
    ['a subnormal ratio', 1e-310, 1],
    ['the smallest subnormal', 5e-324, 1],
    ['a ratio of 2^1023', 2 ** 1023, 1],
    ['a zero', 0, 1],
    ['an infinite ratio', 1, 0],
    ['a negative bin', -1, 1],
  ])('%s in either lane reads as Math.log reads it', (_, x, y) => {
    for (const lane of [0, 1, 2]) {
      const arena = spectraArena(6);
      const a = arena.subarray(0, 3);
      const b = arena.subarray(3, 6);
      a.set([0.3, 0.7, 0.11]);
      b.set([0.5, 0.2, 0.13]);
      a[lane] = x;
      b[lane] = y;
      const { inKernel, inJs } = bothWays(a, -Infinity, b, -Infinity, 3);
      expect(Object.is(inKernel, inJs), `lane ${lane}: ${inKernel} vs ${inJs}`).toBe(true);
    }
  });

  it('reads the bins at the given offsets in the arena', () => {
    const arena = spectraArena(8);
    arena.set([9, Math.E, 5, 7, 1, 1, 3, 0]);
    expect(sumSquaredLogRatios(arena, 1, -Infinity, arena, 5, -Infinity, 1)).toBeCloseTo(1, 14);
  });

  // The mel log amplitudes' ½·ln, in place in the memory (wasm/log-ratio.wat's scaledLogs).
  it('scaledLogs in memory: the JavaScript table logarithm times the scale to the bit, odd values included', () => {
    const values = [0.3, 1, 1e-12, 7.5e7, 1e-310, 5e-324, 0, -0, -2, Infinity, NaN, 2 ** 1023, Math.E, 1 + 2 ** -40];
    let seed = 7;
    for (let k = 0; k < 200; k++) values.push(Math.pow(10, 30 - 60 * ((seed = (seed * 16807) % 2147483647) / 2147483647)));
    const arena = spectraArena(values.length + 3);
    const at = 3;
    arena.set(values, at);
    expect(scaledLogsInMemory(arena.byteOffset + 8 * at, values.length, 0.5)).toBe(true);
    const inJs = new Float64Array(values.length);
    scaledLogs(Float64Array.from(values), 0.5, inJs, values.length);
    values.forEach((x, k) => expect(Object.is(arena[at + k], inJs[k]), `ln ${x}: ${arena[at + k]} vs ${inJs[k]}`).toBe(true));
  });
});
