import { describe, expect, it } from 'vitest';
import { exactSumsInWasm, exactSumsJs, type ExactSums } from '../../../../electron/common/analysis/exact-sums.js';
import { uniform } from '../../../helpers/signals.js';

/** Σ a[i]·b[i+lag] over i, i+lag in [0, length), term by term in Float64: the definition. */
function direct(a: Float32Array, b: Float32Array, length: number, lag: number): number {
  let s = 0;
  for (let i = Math.max(0, -lag); i < Math.min(length, length - lag); i++) s += a[i] * b[i + lag];
  return s;
}

function definition(a: Float32Array, b: Float32Array, length: number, lag: number): ExactSums {
  const [before, exact, after] = [-1, 0, 1].map((d) => direct(a, b, length, lag + d));
  return { energyA: direct(a, a, length, 0), energyB: direct(b, b, length, 0), before, exact, after };
}

function samples(length: number, seed: number): Float32Array {
  const next = uniform(seed);
  return Float32Array.from({ length }, () => (next() - 0.5) * 2 ** (20 * next() - 10));
}

const names = ['energyA', 'energyB', 'before', 'exact', 'after'] as const;

// Every sum adds its terms in ascending i in Float64, in the kernel (wasm/exact-sums.wat) as in the
// JavaScript, so both must give the definition's sums to the last bit. The kernel works in chunks of
// 32768 samples: the lengths straddle one and two chunks, and one lag is longer than a chunk.
describe('exactSums: Σa², Σb² and the sums at lag − 1, lag, lag + 1, bit for bit', () => {
  it('the kernel compiles here (Node has WebAssembly SIMD)', () => {
    expect(exactSumsInWasm(Float32Array.of(1, 2, 3), Float32Array.of(1, 2, 3), 3, 0)).not.toBeNull();
  });

  it.each([
    [65541, [0, 1, -1, 37, -2048, 40000, 65538, -65539]],
    [32769, [2, -3, 32766]],
    [5, [0, 1, -4, 4, 6]],
  ])('length %i, lags %j', (length, lags) => {
    const a = samples(length + 3, length);
    const b = samples(length + 3, length + 1);
    // Special values, beyond `length` too (they must not be read).
    [NaN, Infinity, 1e-45, 3e38].forEach((v, k) => (a[length + (k % 3)] = v));
    for (const lag of lags) {
      const expected = definition(a, b, length, lag);
      for (const [how, sums] of [
        ['wasm', exactSumsInWasm(a, b, length, lag)!],
        ['js', exactSumsJs(a, b, length, lag)],
      ] as const) {
        for (const name of names) {
          expect(Object.is(sums[name], expected[name]), `${how} lag ${lag} ${name}: ${sums[name]} vs ${expected[name]}`).toBe(true);
        }
      }
    }
  });

  it('NaN, infinities and subnormals read as the definition reads them', () => {
    const a = samples(40000, 7);
    const b = samples(40000, 8);
    a[100] = 1e-45;
    b[30000] = -Infinity;
    b[35000] = 3e38;
    a[35010] = 3e38;
    for (const lag of [0, 10, -10]) {
      const expected = definition(a, b, 40000, lag);
      const sums = exactSumsInWasm(a, b, 40000, lag)!;
      for (const name of names) expect(sums[name], `lag ${lag} ${name}`).toBe(expected[name]);
    }
    a[20000] = NaN;
    expect(exactSumsInWasm(a, b, 40000, 3)!.energyA).toBeNaN();
  });
});
