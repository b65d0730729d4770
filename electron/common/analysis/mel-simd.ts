/**
 * The mel filterbank's band sums (melLogAmplitude's loop in mel-cepstrum.ts) as a WebAssembly SIMD
 * kernel: each band's even-offset bins in lane 0 and odd-offset bins in lane 1 of f64x2 values, which
 * are the JavaScript loop's two partial sums, and the floor taken by f64x2.pmax(floor, p), which is
 * `p > floor ? p : floor` (NaN reads as the floor). Same operations in the same order, so the sums
 * are the JavaScript loop's to the last bit (test/unit/common/analysis/mel-simd.test.ts).
 */
import {
  compileKernel,
  ensureBytes,
  get,
  type Kernel,
  leb,
  moduleBytes,
  set,
  simd,
  vector,
  type WasmMemory,
} from './wasm-bytes.js';

/** Byte offsets in the module's memory: the plan's three Int32Arrays, the sums, then weights and one spectrum. */
const BANDS_MAX = 128;
const STARTS = 0;
const COUNTS = 4 * BANDS_MAX;
const WEIGHT_AT = 8 * BANDS_MAX;
const SUMS = 12 * BANDS_MAX;
const WEIGHTS = 20 * BANDS_MAX;

// Locals: parameters (the spectrum's byte address, the floor, the band count × 4), then the band's
// byte offset into the Int32Arrays, its first bin's and first weight's byte addresses, its bin count,
// the bin index, the scalar sum and the f64x2 values.
const POWER = 0,
  FLOOR = 1,
  END = 2,
  M = 3,
  FIRST = 4,
  W = 5,
  COUNT = 6,
  J = 7,
  S = 8,
  LANES = 9,
  FLOORS = 10;

const i32load = (offset: number) => [0x28, 2, ...leb(offset)];
/** Byte address base + 8·j on the stack. */
const at8 = (base: number) => [...get(base), ...get(J), 0x41, 3, 0x74, 0x6a];

function kernelCode(): number[] {
  // One instruction (or one statement of the JavaScript loop) a line.
  // prettier-ignore
  const body = [
    ...get(FLOOR), ...simd(0x14), ...set(FLOORS), // f64x2.splat
    0x02, 0x40, 0x03, 0x40, // block, loop over bands
    ...get(M), ...get(END), 0x4e, 0x0d, 1, // m ≥ end: break
    ...get(POWER), ...get(M), ...i32load(STARTS), 0x41, 3, 0x74, 0x6a, ...set(FIRST),
    ...get(M), ...i32load(WEIGHT_AT), 0x41, 3, 0x74, 0x41, ...leb(WEIGHTS), 0x6a, ...set(W),
    ...get(M), ...i32load(COUNTS), ...set(COUNT),
    ...simd(0x0c), ...new Array<number>(16).fill(0), ...set(LANES), // v128.const 0
    0x41, 0, ...set(J),
    0x02, 0x40, 0x03, 0x40, // block, loop over bin pairs
    ...get(J), 0x41, 1, 0x6a, ...get(COUNT), 0x4e, 0x0d, 1, // j + 1 ≥ count: break
    // lanes += w[j, j+1] · pmax(floor, p[j, j+1])
    ...get(LANES),
    ...at8(W), ...simd(0x00), 3, 0,
    ...get(FLOORS), ...at8(FIRST), ...simd(0x00), 3, 0, ...simd(0xf7), // f64x2.pmax
    ...simd(0xf2), ...simd(0xf0), ...set(LANES),
    ...get(J), 0x41, 2, 0x6a, ...set(J),
    0x0c, 0,
    0x0b, 0x0b,
    ...get(LANES), ...simd(0x21), 0, ...set(S), // s = lane 0
    // An odd count: s += w[j] · (p[j] > floor ? p[j] : floor)
    ...get(J), ...get(COUNT), 0x48, 0x04, 0x40, // if j < count
    ...get(S),
    ...at8(W), 0x2b, 3, 0,
    ...at8(FIRST), 0x2b, 3, 0, ...get(FLOOR), ...at8(FIRST), 0x2b, 3, 0, ...get(FLOOR), 0x64, 0x1b, // select
    0xa2, 0xa0, ...set(S),
    0x0b,
    // sums[m] = s + lane 1
    ...get(M), 0x41, 1, 0x74, ...get(S), ...get(LANES), ...simd(0x21), 1, 0xa0, 0x39, 3, ...leb(SUMS),
    ...get(M), 0x41, 4, 0x6a, ...set(M),
    0x0c, 0,
    0x0b, 0x0b,
    0x0b,
  ];
  const locals = vector([
    [5, 0x7f], // m, first, w, count, j
    [1, 0x7c], // s
    [2, 0x7b], // lanes, floors
  ]);
  return [...locals, ...body];
}

type BandsKernel = (power: number, floor: number, end: number) => void;

/** The band sums of one mel plan: its bands, bins and weights are copied into the kernel's memory once. */
export class SimdMelBands {
  private readonly memory: WasmMemory;
  private readonly bands: BandsKernel;
  private readonly count: number;
  private readonly powerAt: number;
  private power = new Float64Array(0);
  private sums = new Float64Array(0);

  constructor({ memory, kernel }: Kernel<BandsKernel>, plan: BandPlan, bins: number) {
    this.memory = memory;
    this.bands = kernel;
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
    if (frame.length !== this.power.length) throw new Error(`mel bands: a frame of ${frame.length} bins where the plan has ${this.power.length}`);
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

let factory: (() => Kernel<BandsKernel>) | null | undefined;

/** A kernel for `plan` (at most 128 bands), or null where WebAssembly SIMD cannot be compiled. */
export function simdMelBands(plan: BandPlan, bins: number): SimdMelBands | null {
  if (plan.starts.length > BANDS_MAX) return null;
  if (factory === undefined)
    factory = compileKernel<BandsKernel>(moduleBytes([0x7f, 0x7c, 0x7f], kernelCode()));
  return factory ? new SimdMelBands(factory(), plan, bins) : null;
}
