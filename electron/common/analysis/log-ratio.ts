import { LOG_TABLES_AT, spectraKernel, spectraMemory } from './spectra-memory.js';
import { logRatioWasm } from './wasm/log-ratio.wasm.js';

/**
 * Natural logarithms for the spectral distances by a table, not Math.log: V8 calls Math.log out of line,
 * and the log-spectral distance takes 2 × 513 of them per frame (docs/performance.md has the timing).
 *
 * x = 2^e·m with m in [1, 2); j = m's first 10 fraction bits, c_j = 1 + j/1024 (so ln 1 is exactly 0);
 * ln x = e·ln 2 − ln(1/c_j) + ln(1 + r), r = m·(1/c_j) − 1 in [0, 2^−10), ln(1 + r) by its series to r^5
 * (the next term is < 2e−19). Within 2e−14 of Math.log for |ln x| up to 60
 * (test/unit/common/analysis/log-ratio.test.ts). Zero, subnormal, infinite, negative and NaN values
 * take Math.log, so they read as Math.log reads them.
 */
const TABLE_BITS = 10;
const TABLE_SIZE = 1 << TABLE_BITS;
const INVERSE_EDGE = new Float64Array(TABLE_SIZE);
const LN_EDGE = new Float64Array(TABLE_SIZE);
for (let j = 0; j < TABLE_SIZE; j++) {
  INVERSE_EDGE[j] = 1 / (1 + j / TABLE_SIZE);
  LN_EDGE[j] = -Math.log(INVERSE_EDGE[j]);
}
/** For each biased exponent of a normal double: 2^−e (scales x to its mantissa m exactly) and e·ln 2. */
const UNSCALE = new Float64Array(2048);
const LN_SCALE = new Float64Array(2048);
for (let biased = 1; biased < 2047; biased++) {
  UNSCALE[biased] = Math.pow(2, 1023 - biased);
  LN_SCALE[biased] = (biased - 1023) * Math.LN2;
}

// Values are written here first and their high words read after: reading a double's high word right
// after writing it would stall. The high word of element k is Uint32 slot 2k + HIGH.
let values = new Float64Array(0);
let highWords = new Uint32Array(0);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

function ensure(count: number): void {
  if (values.length >= count) return;
  values = new Float64Array(count);
  highWords = new Uint32Array(values.buffer);
}

/**
 * out[k] = ln(values[k]) for k < count, from the table (`out` may be `values`: each is read before it is
 * written). One loop with no call in it: a double passed to or returned from a call that V8 does not
 * inline is boxed, and the 2.9M logarithms of a 60 s pair then cost ~100 young-generation collections.
 */
function tableLogs(count: number, out: Float64Array): void {
  const v = values;
  const h = highWords;
  for (let k = 0; k < count; k++) {
    const x = v[k];
    const high = h[2 * k + HIGH];
    const biased = high >>> 20;
    if (biased === 0 || biased >= 2047) {
      out[k] = Math.log(x);
      continue;
    }
    const j = (high >>> (20 - TABLE_BITS)) & (TABLE_SIZE - 1);
    const r = x * UNSCALE[biased] * INVERSE_EDGE[j] - 1;
    out[k] = LN_SCALE[biased] + LN_EDGE[j] + (r - r * r * (1 / 2 - r * (1 / 3 - r * (1 / 4 - r * (1 / 5)))));
  }
}

type LogRatioKernel = (
  a: number,
  floorA: number,
  b: number,
  floorB: number,
  count: number,
  tables: number,
) => number;

const logRatioInstance = spectraKernel(logRatioWasm, { log: Math.log });
let tablesWritten = false;

type ScaledLogsKernel = (x: number, count: number, scale: number, tables: number) => void;

/**
 * wasm/log-ratio.wat over spectraMemory, or null where WebAssembly SIMD cannot be compiled. Its tables are
 * written into the memory once (a replaced memory gets the old one's bytes).
 */
function logKernels(): { sumSquaredLogRatios: LogRatioKernel; scaledLogs: ScaledLogsKernel } | null {
  const instance = logRatioInstance();
  const memory = spectraMemory();
  if (!instance || !memory) return null;
  if (!tablesWritten) {
    new Float64Array(memory.buffer, LOG_TABLES_AT, TABLE_SIZE).set(INVERSE_EDGE);
    new Float64Array(memory.buffer, LOG_TABLES_AT + 8 * TABLE_SIZE, TABLE_SIZE).set(LN_EDGE);
    tablesWritten = true;
  }
  return instance as { sumSquaredLogRatios: LogRatioKernel; scaledLogs: ScaledLogsKernel };
}

/**
 * scaledLogs in place on `count` doubles at byte address `at` of spectraMemory, by the WebAssembly kernel
 * (the same values to the bit); false, with nothing done, where it cannot be compiled.
 */
export function scaledLogsInMemory(at: number, count: number, scale: number): boolean {
  const kernels = logKernels();
  if (!kernels) return false;
  kernels.scaledLogs(at, count, scale, LOG_TABLES_AT);
  return true;
}

/**
 * Σ_{k < count} ln(A_k / B_k)², A_k = a[aAt + k] read through floorA (max(a, floorA); NaN reads as the
 * floor), B_k likewise. Spectra in spectraMemory's arena are read there by the WebAssembly kernel (the
 * same sums to the bit), others by the JavaScript loops.
 */
export function sumSquaredLogRatios(
  a: Float64Array,
  aAt: number,
  floorA: number,
  b: Float64Array,
  bAt: number,
  floorB: number,
  count: number,
): number {
  const simd = logKernels()?.sumSquaredLogRatios;
  const memory = spectraMemory();
  if (simd && a.buffer === memory?.buffer && b.buffer === memory.buffer) {
    return simd(a.byteOffset + 8 * aAt, floorA, b.byteOffset + 8 * bAt, floorB, count, LOG_TABLES_AT);
  }
  return sumSquaredLogRatiosJs(a, aAt, floorA, b, bAt, floorB, count);
}

/** sumSquaredLogRatios in JavaScript (exported for the test that holds the kernel to it). */
export function sumSquaredLogRatiosJs(
  a: Float64Array,
  aAt: number,
  floorA: number,
  b: Float64Array,
  bAt: number,
  floorB: number,
  count: number,
): number {
  ensure(count);
  const v = values;
  // Doubles for V8, so that the floor-or-bin choices are never boxed (see melLogAmplitude).
  const fa = floorA + 0;
  const fb = floorB + 0;
  for (let k = 0; k < count; k++) {
    const x = a[aAt + k];
    const y = b[bAt + k];
    v[k] = (x > fa ? x : fa) / (y > fb ? y : fb);
  }
  tableLogs(count, v);
  let sum = 0;
  for (let k = 0; k < count; k++) sum += v[k] * v[k];
  return sum;
}

/** out[k] = scale·ln(x[k]) for k < count. */
export function scaledLogs(x: Float64Array, scale: number, out: Float64Array, count: number): void {
  ensure(count);
  values.set(x.subarray(0, count));
  tableLogs(count, out);
  for (let k = 0; k < count; k++) out[k] *= scale;
}
