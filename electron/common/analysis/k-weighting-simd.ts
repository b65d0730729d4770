/**
 * The paired K-weighting loop of k-weighting.ts (two independent filters, one per half of the take) as
 * a WebAssembly SIMD kernel: filter A in lane 0 and filter B in lane 1 of f64x2 values, so each
 * arithmetic instruction serves both. V8 runs the scalar loop at its floating-point throughput (18
 * operations a sample), so halving the instructions is what makes it faster. Same operations in the
 * same order on IEEE doubles as the JavaScript loop, so the energies are the same to the last bit
 * (test/unit/common/analysis/k-weighting-simd.test.ts).
 *
 * The module is written out here byte by byte (no toolchain in the build); it is small enough to
 * compile synchronously on any thread.
 */
import type { KWeighting } from './k-weighting.js';
import {
  compileKernel,
  ensureBytes,
  get,
  leb,
  type Kernel,
  moduleBytes,
  set,
  simd,
  vector,
  type WasmMemory,
} from './wasm-bytes.js';

/** Byte offsets in the module's memory: the filter state and coefficients, then A's and B's samples. */
const STATE = 0;
const SAMPLES = 256;

// Locals of the kernel: parameters first (byte addresses of A's and B's samples, their byte count, the
// state's address), then the loop's byte offset and the f64x2 values.
const A = 0,
  B = 1,
  BYTES = 2,
  ST = 3,
  K = 4,
  X = 5,
  U = 6,
  P1 = 7,
  P2 = 8,
  R1 = 9,
  R2 = 10,
  SUM = 11,
  Y = 12,
  PB0 = 13,
  PB1 = 14,
  PB2 = 15,
  PA1 = 16,
  PA2 = 17,
  RA1 = 18,
  RA2 = 19;
/** f64x2 slots of the state block, in this order (16 bytes each). */
const SLOTS = [P1, P2, R1, R2, SUM, PB0, PB1, PB2, PA1, PA2, RA1, RA2];
/** Of those, the ones the kernel writes back. */
const WRITTEN = [P1, P2, R1, R2, SUM];

const add = simd(0xf0); // f64x2.add
const sub = simd(0xf1); // f64x2.sub
const mul = simd(0xf2); // f64x2.mul
const slotOffset = (local: number) => 16 * SLOTS.indexOf(local);

function kernelCode(): number[] {
  // One instruction (or one statement of the JavaScript loop) a line.
  // prettier-ignore
  const body = [
    // Coefficients and state from memory.
    ...SLOTS.flatMap((local) => [...get(ST), ...simd(0x00), 4, ...leb(slotOffset(local)), ...set(local)]),
    0x02, 0x40, // block
    0x03, 0x40, // loop
    ...get(K), ...get(BYTES), 0x4f, 0x0d, 1, // k >= bytes: break
    // x = [A[k], B[k]] as doubles: B's address, A's sample into lane 0, B's into lane 1, promoted.
    ...get(B), ...get(K), 0x6a,
    ...get(A), ...get(K), 0x6a, ...simd(0x5c), 2, 0, // v128.load32_zero
    ...simd(0x56), 2, 0, 1, // v128.load32_lane 1
    ...simd(0x5f), ...set(X), // f64x2.promote_low_f32x4
    // u = pb0·x + p1
    ...get(PB0), ...get(X), ...mul, ...get(P1), ...add, ...set(U),
    // p1 = pb1·x − pa1·u + p2
    ...get(PB1), ...get(X), ...mul, ...get(PA1), ...get(U), ...mul, ...sub, ...get(P2), ...add, ...set(P1),
    // p2 = pb2·x − pa2·u
    ...get(PB2), ...get(X), ...mul, ...get(PA2), ...get(U), ...mul, ...sub, ...set(P2),
    // y = u + r1
    ...get(U), ...get(R1), ...add, ...set(Y),
    // r1 = r2 − (u + u + ra1·y)
    ...get(R2), ...get(U), ...get(U), ...add, ...get(RA1), ...get(Y), ...mul, ...add, ...sub, ...set(R1),
    // r2 = u − ra2·y
    ...get(U), ...get(RA2), ...get(Y), ...mul, ...sub, ...set(R2),
    // sum += y·y
    ...get(SUM), ...get(Y), ...get(Y), ...mul, ...add, ...set(SUM),
    ...get(K), 0x41, 4, 0x6a, ...set(K), // k += 4
    0x0c, 0, // continue
    0x0b, // end loop
    0x0b, // end block
    ...WRITTEN.flatMap((local) => [...get(ST), ...get(local), ...simd(0x0b), 4, ...leb(slotOffset(local))]),
    0x0b,
  ];
  const locals = vector([
    [1, 0x7f], // k: i32
    [15, 0x7b], // x … ra2: v128
  ]);
  return [...locals, ...body];
}

type PairsKernel = (a: number, b: number, bytes: number, state: number) => void;

/** Runs filters A and B of the paired loop side by side over `count` samples each. */
export class SimdPairFilter {
  private readonly memory: WasmMemory;
  private readonly pairs: PairsKernel;
  private f64 = new Float64Array(0);
  private f32 = new Float32Array(0);

  constructor({ memory, kernel }: Kernel<PairsKernel>) {
    this.memory = memory;
    this.pairs = kernel;
    this.views();
  }

  /** Coefficients in: the high-pass numerator is 1, −2, 1 (the caller checks), so only its poles go in. */
  setFilter({ shelf: p, highpass: r }: KWeighting): void {
    [p.b0, p.b1, p.b2, p.a1, p.a2, r.a1, r.a2].forEach((c, i) => this.f64.fill(c, 10 + 2 * i, 12 + 2 * i));
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
    if (ensureBytes(this.memory, SAMPLES + 8 * count)) this.views();
    const f64 = this.f64;
    for (let s = 0; s < 4; s++) {
      f64[2 * s] = stateA[s];
      f64[2 * s + 1] = stateB[s];
    }
    f64[8] = 0;
    f64[9] = 0;
    const first = SAMPLES / 4;
    this.f32.set(signal.subarray(i, i + count), first);
    this.f32.set(signal.subarray(j, j + count), first + count);
    this.pairs(SAMPLES, SAMPLES + 4 * count, 4 * count, STATE);
    for (let s = 0; s < 4; s++) {
      stateA[s] = f64[2 * s];
      stateB[s] = f64[2 * s + 1];
    }
    sums[0] = f64[8];
    sums[1] = f64[9];
  }

  private views(): void {
    this.f64 = new Float64Array(this.memory.buffer, STATE, SAMPLES / 8);
    this.f32 = new Float32Array(this.memory.buffer);
  }
}

let factory: (() => Kernel<PairsKernel>) | null | undefined;

/** A kernel of its own (its memory holds the state), or null where WebAssembly SIMD cannot be compiled. */
export function simdPairFilter(): SimdPairFilter | null {
  if (factory === undefined)
    factory = compileKernel<PairsKernel>(moduleBytes([0x7f, 0x7f, 0x7f, 0x7f], kernelCode()));
  return factory ? new SimdPairFilter(factory()) : null;
}
