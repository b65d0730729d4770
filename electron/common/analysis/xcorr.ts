import { goodFftSize, realFft } from './fft.js';

/**
 * Cross-correlation r[τ] = Σ a[i]·b[i+τ] over |τ| ≤ maxLag, over the first `length` samples of each
 * signal (samples past `length` read as zero). Positive τ: B is late (B[i+τ] ≈ A[i]).
 *
 * Block-wise, so memory does not grow with the take: A is cut into blocks of n − 2·maxLag samples; each
 * block is correlated with the B samples it can reach (its span ± maxLag) by one PFFFT (float32) of
 * size n ≈ 8·(2·maxLag + 1), and the 2·maxLag + 1 lags are summed in Float64 over the blocks. The lag is
 * the largest |r| there; r at that lag and its two neighbours (for the peak and the parabola) are then
 * summed exactly in Float64, sample by sample.
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
  const [energyA, energyB] = energies(a, b, length);
  const none = { lag: 0, fractionalLag: 0, length };
  if (!(energyA > 0 && energyB > 0)) return { peak: NaN, ...none };
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
  if (!(best >= 0)) return { peak: NaN, ...none };
  const inside = lag > -maxLag && lag < maxLag;
  const [before, exact, after] = inside ? exactSums(a, b, length, lag) : [0, exactSum(a, b, length, lag), 0];
  let delta = 0;
  if (inside) {
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
  const spectrumA = new Float32Array(n);
  const sums = new Float64Array(width);
  for (let s = 0; s < length; s += block) {
    const count = Math.min(block, length - s);
    let buf = fft.buffer();
    buf.set(a.subarray(s, s + count));
    buf.fill(0, count);
    fft.forwardInPlace();
    spectrumA.set(fft.buffer());
    // B from s − maxLag to s + count + maxLag, zero outside [0, length).
    buf = fft.buffer();
    buf.fill(0);
    const from = Math.max(0, s - maxLag);
    const to = Math.min(length, s + count + maxLag);
    buf.set(b.subarray(from, to), from - (s - maxLag));
    fft.forwardInPlace();
    conjugateTimes(spectrumA, fft.buffer());
    fft.inverseInPlace();
    // Index k holds Σ_j A[s + j]·B[s − maxLag + j + k]: lag k − maxLag. No index wraps, as j + k < n.
    buf = fft.buffer();
    for (let k = 0; k < width; k++) sums[k] += buf[k] / n;
  }
  return sums;
}

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

/** Σ a[i]·b[i+lag] over i, i+lag in [0, length), in Float64. */
function exactSum(a: Float32Array, b: Float32Array, length: number, lag: number): number {
  const start = Math.max(0, -lag);
  const end = Math.min(length, length - lag);
  let s = 0;
  for (let i = start; i < end; i++) s += a[i] * b[i + lag];
  return s;
}

/**
 * exactSum at lag − 1, lag and lag + 1, the middle of their ranges in one pass over A: three
 * independent sums do not wait on each other as one does. Each adds its terms in exactSum's order, so
 * the values are exactSum's.
 */
function exactSums(a: Float32Array, b: Float32Array, length: number, lag: number): [number, number, number] {
  const from = Math.max(0, 1 - lag);
  const to = Math.min(length, length - lag - 1);
  if (to - from < 2) {
    return [exactSum(a, b, length, lag - 1), exactSum(a, b, length, lag), exactSum(a, b, length, lag + 1)];
  }
  // Lag − 1 starts at 1 − lag (= from) when lag ≤ 1; lag and lag + 1 may start before it.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = Math.max(0, -lag); i < from; i++) s1 += a[i] * b[i + lag];
  for (let i = Math.max(0, -lag - 1); i < from; i++) s2 += a[i] * b[i + lag + 1];
  for (let i = from; i < to; i++) {
    const x = a[i];
    const j = i + lag;
    s0 += x * b[j - 1];
    s1 += x * b[j];
    s2 += x * b[j + 1];
  }
  // Lag + 1 ends at length − lag − 1 (= to) when lag ≥ −1; lag − 1 and lag may end after it.
  for (let i = to; i < Math.min(length, length - lag + 1); i++) s0 += a[i] * b[i + lag - 1];
  for (let i = to; i < Math.min(length, length - lag); i++) s1 += a[i] * b[i + lag];
  return [s0, s1, s2];
}

/** Σa² and Σb² over the first `length` samples, in one pass. */
function energies(a: Float32Array, b: Float32Array, length: number): [number, number] {
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < length; i++) {
    sa += a[i] * a[i];
    sb += b[i] * b[i];
  }
  return [sa, sb];
}
