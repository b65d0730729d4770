import { realFft } from './fft.js';
import { FRAME_AT, MAX_KERNEL_FRAME, spectraKernel, spectraMemory, WINDOW_AT } from './spectra-memory.js';
import { powerSpectrumWasm } from './wasm/power-spectrum.wasm.js';

interface PowerKernels {
  windowFrame(frame: number, window: number, count: number, size: number): void;
  powerBins(fft: number, out: number, norm: number, half: number): number;
}

const powerInstance = spectraKernel(powerSpectrumWasm);
/** The window last copied into spectraMemory (a replaced memory gets the old one's bytes). */
let windowInMemory: HannWindow | undefined;
let frameView = new Float32Array(0);

/**
 * Windowed frame → normalised power spectrum (bins 0..F/2) in out[at ..]; returns its largest bin.
 * Into spectraMemory's arena the window and the power run in wasm/power-spectrum.wat (the frame copied in
 * and out around the FFT, which has a memory of its own); the same values to the bit as the JavaScript.
 */
export function powerSpectrum(
  x: Float32Array,
  start: number,
  count: number,
  window: HannWindow,
  out: Float64Array,
  at: number,
): number {
  const size = window.values.length;
  const memory = spectraMemory();
  const simd =
    out.buffer === memory?.buffer && size <= MAX_KERNEL_FRAME
      ? (powerInstance() as PowerKernels | null)
      : null;
  if (!simd || !memory) return powerSpectrumJs(x, start, count, window, out, at);
  if (windowInMemory !== window) {
    new Float64Array(memory.buffer, WINDOW_AT, size).set(window.values);
    windowInMemory = window;
  }
  if (frameView.buffer !== memory.buffer || frameView.length !== size) {
    frameView = new Float32Array(memory.buffer, FRAME_AT, size);
  }
  frameView.set(x.subarray(start, start + count));
  simd.windowFrame(FRAME_AT, WINDOW_AT, count, size);
  const fft = realFft(size);
  fft.buffer().set(frameView);
  fft.forwardInPlace();
  frameView.set(fft.buffer());
  return simd.powerBins(FRAME_AT, out.byteOffset + 8 * at, window.norm, size / 2);
}

/** powerSpectrum in JavaScript (exported for the test that holds the kernels to it). */
export function powerSpectrumJs(
  x: Float32Array,
  start: number,
  count: number,
  window: HannWindow,
  out: Float64Array,
  at: number,
): number {
  const { values, norm } = window;
  const size = values.length;
  const fft = realFft(size);
  const buf = fft.buffer();
  // Four samples a turn: V8 does not unroll, and this loop cost more than the FFT (23 → 13 ms per
  // 8,400 frames of 1024).
  const whole = count & ~3;
  for (let i = 0; i < whole; i += 4) {
    const j = start + i;
    buf[i] = x[j] * values[i];
    buf[i + 1] = x[j + 1] * values[i + 1];
    buf[i + 2] = x[j + 2] * values[i + 2];
    buf[i + 3] = x[j + 3] * values[i + 3];
  }
  for (let i = whole; i < count; i++) buf[i] = x[start + i] * values[i];
  if (count < size) buf.fill(0, count);
  fft.forwardInPlace();
  const half = size / 2;
  const dc = buf[0] * buf[0] * norm;
  const nyquist = buf[1] * buf[1] * norm;
  out[at] = dc;
  out[at + half] = nyquist;
  // Two bins a turn, each with its own running maximum (20 → 12 ms per 8,400 frames of 1024). NaN
  // bins never count as the loudest.
  let max = 0;
  if (dc > max) max = dc;
  if (nyquist > max) max = nyquist;
  let max2 = 0;
  let k = 1;
  for (; k + 1 < half; k += 2) {
    const re = buf[2 * k];
    const im = buf[2 * k + 1];
    const re2 = buf[2 * k + 2];
    const im2 = buf[2 * k + 3];
    const p = (re * re + im * im) * norm;
    const p2 = (re2 * re2 + im2 * im2) * norm;
    out[at + k] = p;
    out[at + k + 1] = p2;
    if (p > max) max = p;
    if (p2 > max2) max2 = p2;
  }
  for (; k < half; k++) {
    const re = buf[2 * k];
    const im = buf[2 * k + 1];
    const p = (re * re + im * im) * norm;
    out[at + k] = p;
    if (p > max) max = p;
  }
  return max > max2 ? max : max2;
}

/** A periodic Hann window and the power spectrum's normalisation 1/(Σw)². */
export interface HannWindow {
  values: Float64Array;
  norm: number;
}

const windows = new Map<number, HannWindow>();

export function hann(size: number): HannWindow {
  let w = windows.get(size);
  if (!w) {
    const values = new Float64Array(size);
    let sum = 0;
    for (let i = 0; i < size; i++) {
      values[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
      sum += values[i];
    }
    w = { values, norm: 1 / (sum * sum) };
    windows.set(size, w);
  }
  return w;
}
