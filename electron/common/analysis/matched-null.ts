import { realFft } from './fft.js';
import type { CrossCorrelation } from './xcorr.js';
import { ratioDb } from './waveform-metrics.js';

/**
 * DeltaWave-style matched null: B is advanced by the sub-sample lag and scaled by the least-squares
 * gain g (g·B ≈ A, g = ΣA·B / ΣB²), then the null depth 10·log10(Σ(A − g·B)² / ΣA²) is taken over the
 * overlap of the integer alignment.
 *
 * The fractional delay is applied as an FFT phase shift (multiply B's zero-padded spectrum by
 * e^{+i2πkτ/N}, the Nyquist bin by cos(πτ)), reusing the spectrum of the cross-correlation. That path
 * is float32 (PFFFT), so its floor is about −130 dB; the integer-lag alignment is also tried exactly in
 * Float64 and the deeper null is reported with the lag that made it.
 */
export interface MatchedNull {
  gainDb: number;
  /** The lag actually used: the interpolated one, or the integer one when its null is deeper. */
  fractionalLagSamples: number;
  matchedNullDepthDb: number;
}

export function matchedNull(a: Float32Array, b: Float32Array, xc: CrossCorrelation): MatchedNull {
  const lag = xc.lag;
  const start = Math.max(0, -lag);
  const end = Math.min(a.length, b.length - lag);
  const integer = fit(a, b, lag, start, end);
  const result = {
    gainDb: 20 * Math.log10(Math.abs(integer.gain)),
    fractionalLagSamples: lag,
    matchedNullDepthDb: integer.nullDb,
  };
  if (!xc.spectrumB || xc.fractionalLag === lag || !(integer.nullDb > -Infinity)) return result;
  const shifted = shiftedB(xc.spectrumB, xc.fftSize, xc.fractionalLag);
  // The shifted copy holds only the correlated part of B (its first xc.length samples).
  const fracEnd = Math.min(end, xc.length - Math.ceil(Math.max(0, xc.fractionalLag)));
  const fracStart = Math.max(start, Math.ceil(-xc.fractionalLag));
  const fractional = fit(a, shifted, 0, fracStart, fracEnd);
  if (fractional.nullDb < integer.nullDb) {
    return {
      gainDb: 20 * Math.log10(Math.abs(fractional.gain)),
      fractionalLagSamples: xc.fractionalLag,
      matchedNullDepthDb: fractional.nullDb,
    };
  }
  return result;
}

/** Least-squares gain of b[i + offset] onto a[i] over i in [start, end) and the null depth after it. */
function fit(
  a: Float32Array,
  b: Float32Array,
  offset: number,
  start: number,
  end: number,
): { gain: number; nullDb: number } {
  let sab = 0;
  let sbb = 0;
  let saa = 0;
  for (let i = start; i < end; i++) {
    const x = a[i];
    const y = b[i + offset];
    sab += x * y;
    sbb += y * y;
    saa += x * x;
  }
  if (!(sbb > 0)) return { gain: NaN, nullDb: NaN };
  const gain = sab / sbb;
  let residual = 0;
  for (let i = start; i < end; i++) {
    const d = a[i] - gain * b[i + offset];
    residual += d * d;
  }
  return { gain, nullDb: ratioDb(residual, saa) };
}

/** B[i + τ] for i < n, from B's ordered zero-padded spectrum, by phase shift. */
function shiftedB(spectrumB: Float32Array, n: number, tau: number): Float32Array {
  const fft = realFft(n);
  const buf = fft.buffer();
  const step = (2 * Math.PI * tau) / n;
  buf[0] = spectrumB[0] / n;
  buf[1] = (spectrumB[1] * Math.cos(Math.PI * tau)) / n;
  // The twiddle e^{i·step·k} advances by rotation and is recomputed exactly every 256 bins so the
  // recurrence's rounding cannot accumulate.
  const dc = Math.cos(step);
  const ds = Math.sin(step);
  let c = 1;
  let s = 0;
  for (let k = 1; k < n / 2; k++) {
    if ((k & 255) === 0) {
      c = Math.cos(step * k);
      s = Math.sin(step * k);
    } else {
      const c2 = c * dc - s * ds;
      s = c * ds + s * dc;
      c = c2;
    }
    const re = spectrumB[2 * k];
    const im = spectrumB[2 * k + 1];
    buf[2 * k] = (re * c - im * s) / n;
    buf[2 * k + 1] = (re * s + im * c) / n;
  }
  fft.inverseInPlace();
  // A view into WASM memory: valid until the next transform of this size, which `fit` does not do.
  return fft.buffer();
}
