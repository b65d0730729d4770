/**
 * The mel filterbank's band sums (melLogAmplitude's loop in mel-cepstrum.ts) as a WebAssembly SIMD
 * kernel: each band's even-offset bins in lane 0 and odd-offset bins in lane 1 of f64x2 values, which
 * are the JavaScript loop's two partial sums, and the floor taken by f64x2.pmax(floor, p), which is
 * `p > floor ? p : floor` (NaN reads as the floor). Same operations in the same order, so the sums
 * are the JavaScript loop's to the last bit (test/unit/common/analysis/mel-simd.test.ts). The module
 * is wasm/mel-bands.wat, assembled into wasm/mel-bands.wasm.ts.
 */
import { melBandsWasm } from './wasm/mel-bands.wasm.js';
import { compileWasm, ensureBytes, type WasmMemory } from './wasm-module.js';

/**
 * Byte offsets in the module's memory (wasm/mel-bands.wat): the plan's three Int32Arrays, the sums, then
 * weights and one spectrum.
 */
const BANDS_MAX = 128;
const STARTS = 0;
const COUNTS = 4 * BANDS_MAX;
const WEIGHT_AT = 8 * BANDS_MAX;
const SUMS = 12 * BANDS_MAX;
const WEIGHTS = 20 * BANDS_MAX;

type BandsKernel = (power: number, floor: number, end: number) => void;

/** The band sums of one mel plan: its bands, bins and weights are copied into the kernel's memory once. */
export class SimdMelBands {
  private readonly memory: WasmMemory;
  private readonly bands: BandsKernel;
  private readonly count: number;
  private readonly powerAt: number;
  private power = new Float64Array(0);
  private sums = new Float64Array(0);

  constructor(exports: Record<string, unknown>, plan: BandPlan, bins: number) {
    const memory = exports.memory as WasmMemory;
    this.memory = memory;
    this.bands = exports.bandSums as BandsKernel;
    this.count = plan.starts.length;
    this.powerAt = WEIGHTS + 8 * plan.weights.length;
    ensureBytes(memory, this.powerAt + 8 * bins);
    new Int32Array(memory.buffer, STARTS, this.count).set(plan.starts);
    new Int32Array(memory.buffer, COUNTS, this.count).set(plan.counts);
    new Int32Array(memory.buffer, WEIGHT_AT, this.count).set(plan.weightAt);
    new Float64Array(memory.buffer, WEIGHTS, plan.weights.length).set(plan.weights);
    this.power = new Float64Array(memory.buffer, this.powerAt, bins);
    this.sums = new Float64Array(memory.buffer, SUMS, this.count);
  }

  /** out[m] = Σ weight·max(p, floor) over band m's bins of power[at ..] (bins of the plan's frame size). */
  run(power: Float64Array, at: number, floor: number, out: Float64Array): void {
    const frame = power.subarray(at, at + this.power.length);
    if (frame.length !== this.power.length)
      throw new Error(`mel bands: a frame of ${frame.length} bins where the plan has ${this.power.length}`);
    this.power.set(frame);
    this.bands(this.powerAt, floor, 4 * this.count);
    out.set(this.sums);
  }
}

/** What the kernel reads of a MelPlan. */
export interface BandPlan {
  starts: Int32Array;
  counts: Int32Array;
  weightAt: Int32Array;
  weights: Float64Array;
}

let factory: ReturnType<typeof compileWasm> | undefined;

/** A kernel for `plan` (at most 128 bands), or null where WebAssembly SIMD cannot be compiled. */
export function simdMelBands(plan: BandPlan, bins: number): SimdMelBands | null {
  if (plan.starts.length > BANDS_MAX) return null;
  if (factory === undefined) factory = compileWasm(melBandsWasm);
  return factory ? new SimdMelBands(factory(), plan, bins) : null;
}
