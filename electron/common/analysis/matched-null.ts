import { realFft } from './fft.js';
import { conjugateProduct } from './conjugate-product.js';
import { blockFftSize, type CrossCorrelation } from './xcorr.js';
import { ratioDb } from './waveform-metrics.js';

/**
 * DeltaWave-style matched null: B is advanced by the sub-sample lag and scaled by the least-squares
 * gain g (g·B ≈ A, g = ΣA·B / ΣB²), then the null depth 10·log10(Σ(A − g·B)² / ΣA²) is taken over the
 * overlap of the integer alignment.
 *
 * The fractional delay is a Kaiser-windowed sinc of FRACTIONAL_TAPS taps (β = 10: its response is
 * e^{iωτ} within about −100 dB up to 0.99 of Nyquist), applied block-wise by FFT (overlap-save, PFFFT
 * float32), so no whole-take copy or transform is made; B reads as zero outside its first xc.length
 * samples. The integer-lag alignment is also fitted exactly in Float64 and the deeper null is reported
 * with the lag that made it.
 */
export interface MatchedNull {
  gainDb: number;
  /** The lag actually used: the interpolated one, or the integer one when its null is deeper. */
  fractionalLagSamples: number;
  matchedNullDepthDb: number;
}

/** Taps of the fractional-delay filter (even: half on each side of the interpolated point). */
export const FRACTIONAL_TAPS = 1024;
const KAISER_BETA = 10;

/** ΣA·B, ΣB², ΣA² at the integer lag over its overlap, each in ascending order (as fit sums them). */
export interface IntegerLagSums {
  sab: number;
  sbb: number;
  saa: number;
}

/** `aligned`: the integer-lag sums when the caller has them (compareSignals' aligned sample metrics). */
export function matchedNull(
  a: Float32Array,
  b: Float32Array,
  xc: CrossCorrelation,
  aligned?: IntegerLagSums,
): MatchedNull {
  const lag = xc.lag;
  const start = Math.max(0, -lag);
  const end = Math.min(a.length, b.length - lag);
  const integer = fit(a, b, lag, start, end, aligned);
  const result = {
    gainDb: 20 * Math.log10(Math.abs(integer.gain)),
    fractionalLagSamples: lag,
    matchedNullDepthDb: integer.nullDb,
  };
  if (Number.isNaN(xc.peak) || xc.fractionalLag === lag || !(integer.nullDb > -Infinity)) return result;
  // The shifted B holds only the correlated part of B (its first xc.length samples).
  const fracEnd = Math.min(end, xc.length - Math.ceil(Math.max(0, xc.fractionalLag)));
  const fracStart = Math.max(start, Math.ceil(-xc.fractionalLag));
  const fractional = fitShifted(a, b, xc.length, xc.fractionalLag, fracStart, fracEnd);
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
  given: IntegerLagSums | undefined,
): { gain: number; nullDb: number } {
  const { sab, sbb, saa } = given ?? integerLagSums(a, b, offset, start, end);
  if (!(sbb > 0)) return { gain: NaN, nullDb: NaN };
  const gain = sab / sbb;
  let residual = 0;
  for (let i = start; i < end; i++) {
    const d = a[i] - gain * b[i + offset];
    residual += d * d;
  }
  return { gain, nullDb: ratioDb(residual, saa) };
}

function integerLagSums(
  a: Float32Array,
  b: Float32Array,
  offset: number,
  start: number,
  end: number,
): IntegerLagSums {
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
  return { sab, sbb, saa };
}

/**
 * The least-squares fit of B(i + τ) onto A[i] over i in [start, end), B(t) interpolated by the windowed
 * sinc from B's first `length` samples. Shifted B is made block by block and never kept whole: one pass
 * for ΣA·B, ΣB², ΣA², and a second for Σ(A − g·B)² only when the null is deep enough (below −90 dB) for
 * the one-pass formula's cancellation to matter.
 */
function fitShifted(
  a: Float32Array,
  b: Float32Array,
  length: number,
  tau: number,
  start: number,
  end: number,
): { gain: number; nullDb: number } {
  const shifter = fractionalShifter(b, length, tau);
  let sab = 0;
  let sbb = 0;
  let saa = 0;
  for (let o = start; o < end; o += shifter.outputs) {
    const count = Math.min(shifter.outputs, end - o);
    const y = shifter.block(o);
    const scale = shifter.scale;
    for (let q = 0; q < count; q++) {
      const x = a[o + q];
      const v = y[q] * scale;
      sab += x * v;
      sbb += v * v;
      saa += x * x;
    }
  }
  if (!(sbb > 0)) return { gain: NaN, nullDb: NaN };
  const gain = sab / sbb;
  const onePass = Math.max(0, saa - 2 * gain * sab + gain * gain * sbb);
  if (ratioDb(onePass, saa) > -90) return { gain, nullDb: ratioDb(onePass, saa) };
  let residual = 0;
  for (let o = start; o < end; o += shifter.outputs) {
    const count = Math.min(shifter.outputs, end - o);
    const y = shifter.block(o);
    const scale = shifter.scale;
    for (let q = 0; q < count; q++) {
      const d = a[o + q] - gain * (y[q] * scale);
      residual += d * d;
    }
  }
  return { gain, nullDb: ratioDb(residual, saa) };
}

/**
 * y[i] = Σ_j h[j]·x[i + j], x[m] = B[m + ⌊τ⌋ − K + 1] (zero outside [0, length)), h[j] the windowed sinc
 * at (τ − ⌊τ⌋) − (j − K + 1), K = FRACTIONAL_TAPS/2: y[i] ≈ B(i + τ). `block(o)` gives y[o .. o + outputs) times n,
 * one FFT (n − taps + 1 outputs per block).
 */
function fractionalShifter(b: Float32Array, length: number, tau: number) {
  const taps = FRACTIONAL_TAPS;
  const half = taps / 2;
  const whole = Math.floor(tau);
  const frac = tau - whole;
  const n = blockFftSize(taps);
  const outputs = n - taps + 1;
  const fft = realFft(n);
  const buf = () => fft.buffer();
  let h = buf();
  h.fill(0);
  const i0 = besselI0(KAISER_BETA);
  for (let j = 0; j < taps; j++) {
    const x = frac - (j - half + 1);
    const r = x / half;
    const w = Math.abs(r) < 1 ? besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / i0 : 0;
    h[j] = (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x)) * w;
  }
  fft.forwardInPlace();
  const kernel = conjugateProduct(n);
  kernel.keep(buf());
  const offset = whole - half + 1;
  return {
    /** Outputs per block, and the factor (1/n) that scales a block's values to y. */
    outputs,
    scale: 1 / n,
    /** y[o + q]·n at index q < outputs: a view into WASM memory, valid until the next block. */
    block(o: number): Float32Array {
      h = buf();
      h.fill(0);
      const lo = Math.max(0, o + offset);
      const hi = Math.min(length, o + offset + n);
      if (hi > lo) h.set(b.subarray(lo, hi), lo - (o + offset));
      fft.forwardInPlace();
      kernel.multiply(buf());
      fft.inverseInPlace();
      return buf();
    },
  };
}

/** Modified Bessel function of the first kind, order 0 (power series; converges fast for x ≤ 20). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 60; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}
