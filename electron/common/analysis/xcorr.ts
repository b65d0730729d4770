import { goodFftSize, realFft } from './fft.js';

/**
 * Cross-correlation r[τ] = Σ a[i]·b[i+τ] over |τ| ≤ maxLag, by FFT (PFFFT, float32) over the first
 * `length` samples of each signal, zero-padded to a PFFFT size ≥ length + maxLag so that no lag in
 * range wraps around. Positive τ: B is late (B[i+τ] ≈ A[i]).
 */
export interface CrossCorrelation {
  /** r[lag] / sqrt(Σa²·Σb²) with its sign (negative: B is polarity-inverted); NaN if a side is silent. */
  peak: number;
  lag: number;
  /** lag + δ, δ from a parabola through |r| at lag−1, lag, lag+1 (0 at the range edge). */
  fractionalLag: number;
  /** The FFT size used and B's ordered spectrum (zero-padded), reused for the sub-sample shift. */
  fftSize: number;
  spectrumB: Float32Array | undefined;
  /** How many samples of each signal were correlated. */
  length: number;
}

export function crossCorrelate(
  a: Float32Array,
  b: Float32Array,
  length: number,
  maxLag: number,
): CrossCorrelation {
  const energyA = energy(a, length);
  const energyB = energy(b, length);
  const none = { lag: 0, fractionalLag: 0, fftSize: 0, spectrumB: undefined, length };
  if (!(energyA > 0 && energyB > 0)) return { peak: NaN, ...none };
  const n = goodFftSize(length + maxLag);
  const fft = realFft(n);
  const spectrumA = new Float32Array(n);
  const spectrumB = new Float32Array(n);
  fft.forward(a.subarray(0, length), spectrumA);
  fft.forward(b.subarray(0, length), spectrumB);
  const r = fft.buffer();
  // Ordered layout: [DC, Nyquist, re1, im1, re2, im2, …]; conj(A)·B gives Σ a[i]·b[i+τ] at index τ mod n.
  r[0] = spectrumA[0] * spectrumB[0];
  r[1] = spectrumA[1] * spectrumB[1];
  for (let k = 2; k < n; k += 2) {
    const ar = spectrumA[k];
    const ai = spectrumA[k + 1];
    const br = spectrumB[k];
    const bi = spectrumB[k + 1];
    r[k] = ar * br + ai * bi;
    r[k + 1] = ar * bi - ai * br;
  }
  fft.inverseInPlace();
  const at = (lag: number): number => Math.abs(r[lag >= 0 ? lag : n + lag]);
  let best = -1;
  let lag = 0;
  for (let t = -maxLag; t <= maxLag; t++) {
    const v = at(t);
    if (v > best) {
      best = v;
      lag = t;
    }
  }
  if (best < 0) return { peak: NaN, ...none };
  let delta = 0;
  if (lag > -maxLag && lag < maxLag) {
    const y0 = at(lag - 1);
    const y1 = best;
    const y2 = at(lag + 1);
    const curvature = y0 - 2 * y1 + y2;
    if (curvature < 0) delta = Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / curvature));
  }
  const signed = r[lag >= 0 ? lag : n + lag] / n;
  return {
    peak: signed / Math.sqrt(energyA * energyB),
    lag,
    fractionalLag: lag + delta,
    fftSize: n,
    spectrumB,
    length,
  };
}

function energy(x: Float32Array, length: number): number {
  let s = 0;
  for (let i = 0; i < length; i++) s += x[i] * x[i];
  return s;
}
