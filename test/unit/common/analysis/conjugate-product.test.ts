import { describe, expect, it } from 'vitest';
import {
  conjugateTimes,
  jsConjugateProduct,
  wasmConjugateProduct,
} from '../../../../electron/common/analysis/conjugate-product.js';
import { uniform } from '../../../helpers/signals.js';

/** An ordered spectrum of n floats, magnitudes over 2^±40, with the special values planted among them. */
function spectrum(n: number, seed: number): Float32Array {
  const next = uniform(seed);
  const x = Float32Array.from({ length: n }, () => (next() - 0.5) * 2 ** (80 * next() - 40));
  const planted = [NaN, Infinity, -Infinity, 0, -0, 1e-45, -3e-39, 3.4e38, -2e38];
  planted.forEach((v, i) => (x[(7 * i * seed + 3 * i) % n] = v));
  return x;
}

// The kernel (wasm/conjugate-times.wat) does the JavaScript's operations on IEEE doubles and rounds to
// float32 where the JavaScript stores, so its products must be conjugateTimes' to the last bit.
describe('conjugate products in WebAssembly SIMD', () => {
  it('compiles here (Node has WebAssembly SIMD)', () => {
    expect(wasmConjugateProduct(32)).not.toBeNull();
  });

  it.each([32, 96, 8192, 20000])('n = %i, with overflows, subnormals, NaN and infinities: bit for bit', (n) => {
    const x = spectrum(n, n + 1);
    const ys = [spectrum(n, n + 2), spectrum(n, n + 3)];
    const expected = ys.map((y) => {
      const out = y.slice();
      conjugateTimes(x, out);
      return out;
    });
    for (const product of [wasmConjugateProduct(n)!, jsConjugateProduct(n)]) {
      product.keep(x);
      ys.forEach((y, i) => {
        const buf = y.slice();
        product.multiply(buf);
        const differ = buf.findIndex((v, k) => !Object.is(v, expected[i][k]));
        expect(differ, `slot ${differ}: ${buf[differ]} vs ${expected[i][differ]}`).toBe(-1);
      });
    }
  });

  it('keeps a copy of X and serves a larger n after a smaller one', () => {
    for (const n of [64, 4096]) {
      const x = spectrum(n, 5);
      const y = spectrum(n, 6);
      const expected = y.slice();
      conjugateTimes(x, expected);
      const product = wasmConjugateProduct(n)!;
      product.keep(x);
      x.fill(1);
      product.multiply(y);
      expect(y).toEqual(expected);
    }
  });
});
