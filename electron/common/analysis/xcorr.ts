import { conjugateProduct } from './conjugate-product.js';
import { exactSums } from './exact-sums.js';
import { goodFftSize, realFft } from './fft.js';

/**
 * Cross-correlation r[τ] = Σ a[i]·b[i+τ] over |τ| ≤ maxLag, over the first `length` samples of each
 * signal (samples past `length` read as zero). Positive τ: B is late (B[i+τ] ≈ A[i]).
 *
 * Block-wise, so memory does not grow with the take: A is cut into blocks of n − 2·maxLag samples; each
 * block is correlated with the B samples it can reach (its span ± maxLag) by one PFFFT (float32) of
 * size n ≈ 8·(2·maxLag + 1), and the 2·maxLag + 1 lags are summed in Float64 over the blocks. The lag is
 * the largest |r| there; r at that lag and its two neighbours (for the peak and the parabola) are then
 * summed exactly in Float64, sample by sample, in the energies' pass (exact-sums.ts). The spectra's
 * products and the exact sums run as WebAssembly kernels where SIMD compiles, to the same bits.
 */
export interface CrossCorrelation {
  /** r[lag] / sqrt(Σa²·Σb²) with its sign (negative: B is polarity-inverted); NaN if a side is silent. */
  peak: number;
  lag: number;
  /** lag + δ, δ from a parabola through |r| at lag−1, lag, lag+1 (0 at the range edge). */
  fractionalLag: number;
  /** How many samples of each signal were correlated. */
  length: number;
}

/** Smallest FFT used by the block-wise correlations (smaller blocks cost more calls than they save). */
const MIN_BLOCK_FFT = 8192;

/** The FFT size for correlating against a window of `reach` extra samples: ~8× it, at least MIN_BLOCK_FFT. */
export function blockFftSize(reach: number): number {
  return goodFftSize(Math.max(MIN_BLOCK_FFT, 8 * (reach + 1)));
}

export function crossCorrelate(
  a: Float32Array,
  b: Float32Array,
  length: number,
  maxLag: number,
): CrossCorrelation {
  const none = { peak: NaN, lag: 0, fractionalLag: 0, length };
  // The energies are summed in the exact sums' pass, after the lag; a side of zeros is refused first.
  if (!hasSound(a, length) || !hasSound(b, length)) return none;
  const r = laggedSums(a, b, length, maxLag);
  let best = -1;
  let lag = 0;
  for (let t = -maxLag; t <= maxLag; t++) {
    const v = Math.abs(r[t + maxLag]);
    if (v > best) {
      best = v;
      lag = t;
    }
  }
  if (!(best >= 0)) return none;
  const { energyA, energyB, before, exact, after } = exactSums(a, b, length, lag);
  if (!(energyA > 0 && energyB > 0)) return none;
  let delta = 0;
  if (lag > -maxLag && lag < maxLag) {
    const y0 = Math.abs(before);
    const y1 = Math.abs(exact);
    const y2 = Math.abs(after);
    const curvature = y0 - 2 * y1 + y2;
    if (curvature < 0) delta = Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / curvature));
  }
  return { peak: exact / Math.sqrt(energyA * energyB), lag, fractionalLag: lag + delta, length };
}

/** r[τ + maxLag] = Σ a[i]·b[i+τ] for |τ| ≤ maxLag (i, i+τ < length), block-wise by FFT, Float64 sums. */
function laggedSums(a: Float32Array, b: Float32Array, length: number, maxLag: number): Float64Array {
  const width = 2 * maxLag + 1;
  const n = blockFftSize(2 * maxLag);
  const block = n - 2 * maxLag;
  const fft = realFft(n);
  const product = conjugateProduct(n);
  const sums = new Float64Array(width);
  for (let s = 0; s < length; s += block) {
    const count = Math.min(block, length - s);
    let buf = fft.buffer();
    buf.set(a.subarray(s, s + count));
    buf.fill(0, count);
    fft.forwardInPlace();
    product.keep(fft.buffer());
    // B from s − maxLag to s + count + maxLag, zero outside [0, length).
    buf = fft.buffer();
    const from = Math.max(0, s - maxLag);
    const to = Math.min(length, s + count + maxLag);
    const offset = from - (s - maxLag);
    buf.fill(0, 0, offset);
    buf.set(b.subarray(from, to), offset);
    buf.fill(0, offset + to - from);
    fft.forwardInPlace();
    product.multiply(fft.buffer());
    fft.inverseInPlace();
    // Index k holds Σ_j A[s + j]·B[s − maxLag + j + k]: lag k − maxLag. No index wraps, as j + k < n.
    buf = fft.buffer();
    for (let k = 0; k < width; k++) sums[k] += buf[k] / n;
  }
  return sums;
}

/** Whether one of the first `length` samples is not 0 (without one, Σx² is 0 and the side is silent). */
function hasSound(x: Float32Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (x[i] !== 0) return true;
  return false;
}
