import { type KernelInstance, kernelInstances } from './kernel-memory.js';
import { conjugateTimesWasm } from './wasm/conjugate-times.wasm.js';

/** buf ← conj(x)·buf, both ordered PFFFT spectra ([DC, Nyquist, re1, im1, …]). */
export function conjugateTimes(x: Float32Array, buf: Float32Array): void {
  buf[0] = x[0] * buf[0];
  buf[1] = x[1] * buf[1];
  for (let k = 2; k < buf.length; k += 2) {
    const xr = x[k];
    const xi = x[k + 1];
    const yr = buf[k];
    const yi = buf[k + 1];
    buf[k] = xr * yr + xi * yi;
    buf[k + 1] = xr * yi - xi * yr;
  }
}

/** conj(X)·Y for many spectra Y against one kept X, all ordered PFFFT spectra of the same n floats. */
export interface ConjugateProduct {
  /** Keeps a copy of x as X. */
  keep(x: Float32Array): void;
  /** buf ← conj(X)·buf. */
  multiply(buf: Float32Array): void;
}

/** wasmConjugateProduct where WebAssembly SIMD compiles, else jsConjugateProduct. */
export function conjugateProduct(n: number): ConjugateProduct {
  return wasmConjugateProduct(n) ?? jsConjugateProduct(n);
}

export function jsConjugateProduct(n: number): ConjugateProduct {
  const kept = new Float32Array(n);
  return {
    keep: (x) => kept.set(x),
    multiply: (buf) => conjugateTimes(kept, buf),
  };
}

type Kernel = (x: number, y: number, bins: number) => void;
let instances: ((bytes: number) => KernelInstance) | null | undefined;

/**
 * wasm/conjugate-times.wat, or null where WebAssembly SIMD cannot be compiled. Same products to the bit
 * as conjugateTimes. X and Y live in the kernel's memory, X at 0 and Y after it, and each multiply
 * copies buf in and the product out; a later product may take the same memory: use one at a time.
 */
export function wasmConjugateProduct(n: number): ConjugateProduct | null {
  if (instances === undefined) instances = kernelInstances(conjugateTimesWasm);
  if (!instances || n % 4 !== 0) return null;
  const { exports, memory } = instances(8 * n);
  const run = exports.conjugateTimes as Kernel;
  const kept = new Float32Array(memory.buffer, 0, n);
  const y = new Float32Array(memory.buffer, 4 * n, n);
  return {
    keep: (x) => kept.set(x),
    multiply: (buf) => {
      y.set(buf);
      // The kernel takes every pair of slots as a bin; slots 0 and 1 are the real DC and Nyquist bins.
      const dc = kept[0] * buf[0];
      const nyquist = kept[1] * buf[1];
      run(0, 4 * n, n / 2);
      buf.set(y);
      buf[0] = dc;
      buf[1] = nyquist;
    },
  };
}
