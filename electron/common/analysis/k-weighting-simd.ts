/**
 * The paired K-weighting loop of k-weighting.ts (two independent filters, one per half of the take) as
 * a WebAssembly SIMD kernel: filter A in lane 0 and filter B in lane 1 of f64x2 values, so each
 * arithmetic instruction serves both. V8 runs the scalar loop at its floating-point throughput (18
 * operations a sample), so halving the instructions is what makes it faster. Same operations in the
 * same order on IEEE doubles as the JavaScript loop, so the energies are the same to the last bit
 * (test/unit/common/analysis/k-weighting-simd.test.ts).
 *
 * The module is wasm/k-weighting.wat (the memory layout is described there), assembled into
 * wasm/k-weighting.wasm.ts; it is small enough to compile synchronously on any thread.
 */
import type { KWeighting } from './k-weighting.js';
import { kWeightingWasm } from './wasm/k-weighting.wasm.js';
import { type KernelInstance, kernelInstances } from './kernel-memory.js';

/** Byte offsets in the kernel's memory: the filter state and coefficients, then A's and B's samples. */
const STATE = 0;
const SAMPLES = 256;

type PairsKernel = (a: number, b: number, bytes: number, state: number) => void;

/** Runs filters A and B of the paired loop side by side over `count` samples each. */
export class SimdPairFilter {
  private readonly instances: (bytes: number) => KernelInstance;
  private instance: KernelInstance | undefined;
  private coefficients: readonly number[] = [];
  private f64 = new Float64Array(0);
  private f32 = new Float32Array(0);

  constructor(instances: (bytes: number) => KernelInstance) {
    this.instances = instances;
  }

  /** Coefficients in: the high-pass numerator is 1, −2, 1 (the caller checks), so only its poles go in. */
  setFilter({ shelf: p, highpass: r }: KWeighting): void {
    this.coefficients = [p.b0, p.b1, p.b2, p.a1, p.a2, r.a1, r.a2];
  }

  /**
   * A's state [p1, p2, r1, r2] and B's are read, advanced over signal[i ..] and signal[j ..] (`count`
   * samples each) and written back; returns Σy² of A in sums[0] and of B in sums[1].
   */
  run(
    signal: Float32Array,
    i: number,
    j: number,
    count: number,
    stateA: Float64Array,
    stateB: Float64Array,
    sums: Float64Array,
  ): void {
    const instance = this.instances(SAMPLES + 8 * count);
    if (instance !== this.instance) {
      this.instance = instance;
      this.f64 = new Float64Array(instance.memory.buffer, STATE, SAMPLES / 8);
      this.f32 = new Float32Array(instance.memory.buffer);
    }
    const f64 = this.f64;
    // Every call: the memory may be shared with another filter of the same module.
    this.coefficients.forEach((c, k) => f64.fill(c, 10 + 2 * k, 12 + 2 * k));
    for (let s = 0; s < 4; s++) {
      f64[2 * s] = stateA[s];
      f64[2 * s + 1] = stateB[s];
    }
    f64[8] = 0;
    f64[9] = 0;
    const first = SAMPLES / 4;
    this.f32.set(signal.subarray(i, i + count), first);
    this.f32.set(signal.subarray(j, j + count), first + count);
    (instance.exports.filterPairs as PairsKernel)(SAMPLES, SAMPLES + 4 * count, 4 * count, STATE);
    for (let s = 0; s < 4; s++) {
      stateA[s] = f64[2 * s];
      stateB[s] = f64[2 * s + 1];
    }
    sums[0] = f64[8];
    sums[1] = f64[9];
  }
}

let instances: ReturnType<typeof kernelInstances> | undefined;

/** A kernel (its memory holds the state), or null where WebAssembly SIMD cannot be compiled. */
export function simdPairFilter(): SimdPairFilter | null {
  if (instances === undefined) instances = kernelInstances(kWeightingWasm);
  return instances ? new SimdPairFilter(instances) : null;
}
