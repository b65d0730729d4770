/**
 * The mel log amplitudes (melLogAmplitude in mel-cepstrum.ts) in WebAssembly: the filterbank's band sums
 * as a SIMD kernel, each band's even-offset bins in lane 0 and odd-offset bins in lane 1 of f64x2 values,
 * which are the JavaScript loop's two partial sums, the floor taken by f64x2.pmax(floor, p), which is
 * `p > floor ? p : floor` (NaN reads as the floor), and the edge rule; then ½·ln of each band by
 * log-ratio.ts's kernel, in place. Same operations in the same order, so the values are the JavaScript
 * loops' to the last bit (test/unit/common/analysis/mel-simd.test.ts). The module is wasm/mel-bands.wat,
 * assembled into wasm/mel-bands.wasm.ts; it reads the spectra where spectral.ts keeps them
 * (spectra-memory.ts).
 */
import {
  MCD_DCT_VALUES,
  MCD_PLAN_AT,
  MEL_PLAN_AT,
  MEL_PLAN_BYTES,
  spectraKernel,
  spectraMemory,
} from './spectra-memory.js';
import { melBandsWasm } from './wasm/mel-bands.wasm.js';
import { melCepstralDistortionWasm } from './wasm/mel-cepstral-distortion.wasm.js';
import { scaledLogs, scaledLogsInMemory } from './log-ratio.js';

/** Byte offsets from MEL_PLAN_AT (wasm/mel-bands.wat): the plan's three Int32Arrays, the sums, the weights. */
const BANDS_MAX = 128;
const STARTS = 0;
const COUNTS = 4 * BANDS_MAX;
const WEIGHT_AT = 8 * BANDS_MAX;
const SUMS = 12 * BANDS_MAX;
const WEIGHTS = 20 * BANDS_MAX;

type BandsKernel = (power: number, floor: number, end: number, plan: number) => void;

const melInstance = spectraKernel(melBandsWasm);
/** The plan whose tables are in spectraMemory (a replaced memory gets the old one's bytes). */
let planInMemory: BandPlan | undefined;
let sumsView = new Float64Array(0);

/**
 * The band sums of one mel plan over spectra in spectraMemory's arena (read in place): the plan's bands,
 * bins and weights are copied into the memory when another plan was there.
 */
export class SimdMelBands {
  private readonly plan: BandPlan;
  private readonly bins: number;

  constructor(plan: BandPlan, bins: number) {
    this.plan = plan;
    this.bins = bins;
  }

  /**
   * out[m] = scale·ln(s_m), s_m = Σ weight·max(p, floor) over band m's bins of power[at ..] (bins of the
   * plan's frame size), or band m's first bin through the floor where s_m is not positive: melLogAmplitude's
   * values, the logarithms by log-ratio.ts's kernel in place. False, with nothing written, when `power` is
   * not in spectraMemory (the caller's JavaScript loops run).
   */
  logAmplitudes(power: Float64Array, at: number, floor: number, scale: number, out: Float64Array): boolean {
    const memory = spectraMemory();
    const bands = melInstance()?.bandSums as BandsKernel | undefined;
    if (!bands || !memory || power.buffer !== memory.buffer) return false;
    if (at + this.bins > power.length)
      throw new Error(`mel bands: a frame of ${power.length - at} bins where the plan has ${this.bins}`);
    const count = this.plan.starts.length;
    if (planInMemory !== this.plan) {
      new Int32Array(memory.buffer, MEL_PLAN_AT + STARTS, count).set(this.plan.starts);
      new Int32Array(memory.buffer, MEL_PLAN_AT + COUNTS, count).set(this.plan.counts);
      new Int32Array(memory.buffer, MEL_PLAN_AT + WEIGHT_AT, count).set(this.plan.weightAt);
      new Float64Array(memory.buffer, MEL_PLAN_AT + WEIGHTS, this.plan.weights.length).set(this.plan.weights);
      planInMemory = this.plan;
    }
    bands(power.byteOffset + 8 * at, floor, 4 * count, MEL_PLAN_AT);
    if (sumsView.buffer !== memory.buffer || sumsView.length !== count)
      sumsView = new Float64Array(memory.buffer, MEL_PLAN_AT + SUMS, count);
    if (!scaledLogsInMemory(MEL_PLAN_AT + SUMS, count, scale)) scaledLogs(sumsView, scale, sumsView, count);
    out.set(sumsView);
    return true;
  }
}

/** What the kernel reads of a MelPlan. */
export interface BandPlan {
  starts: Int32Array;
  counts: Int32Array;
  weightAt: Int32Array;
  weights: Float64Array;
}

/**
 * A kernel for `plan` (at most 128 bands and weights that fit MEL_PLAN_BYTES), or null where WebAssembly
 * SIMD cannot be compiled.
 */
export function simdMelBands(plan: BandPlan, bins: number): SimdMelBands | null {
  if (plan.starts.length > BANDS_MAX || WEIGHTS + 8 * plan.weights.length > MEL_PLAN_BYTES) return null;
  return melInstance() ? new SimdMelBands(plan, bins) : null;
}

type McdKernel = (a: number, b: number, plan: number) => number;

const mcdInstance = spectraKernel(melCepstralDistortionWasm);
/** The DCT rows in spectraMemory (a replaced memory gets the old one's bytes). */
let dctInMemory: Float64Array | undefined;

/**
 * mcdFrame of two frames' mel log amplitudes that lie in spectraMemory, by wasm/mel-cepstral-distortion.wat
 * (the JavaScript's value to the bit); null where they do not or the kernel cannot be compiled (the
 * caller's JavaScript runs). `dct`: the plan's rows (MelPlan.dct, 24 × 40).
 */
export function mcdFrameInMemory(dct: Float64Array, logA: Float64Array, logB: Float64Array): number | null {
  const memory = spectraMemory();
  if (!memory || logA.buffer !== memory.buffer || logB.buffer !== memory.buffer) return null;
  // The kernel is written for 24 rows of 40 (order 24, 80 bands): another plan takes the JavaScript.
  if (dct.length !== MCD_DCT_VALUES) return null;
  const kernel = mcdInstance()?.mcdFrame as McdKernel | undefined;
  if (!kernel) return null;
  if (dctInMemory !== dct) {
    new Float64Array(memory.buffer, MCD_PLAN_AT, dct.length).set(dct);
    dctInMemory = dct;
  }
  return kernel(logA.byteOffset, logB.byteOffset, MCD_PLAN_AT);
}
