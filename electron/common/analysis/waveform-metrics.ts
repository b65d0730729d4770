/**
 * Sample-domain metrics of A[aStart + i] against B[bStart + i], i < length, in one Float64 pass.
 * Null depth = 10·log10(Σ(A−B)² / ΣA²) (RMS(A−B) relative to RMS(A)); SNR = −null depth.
 */
export interface SampleMetrics {
  comparedLength: number;
  bitIdentical: boolean;
  maxAbsDiff: number;
  correlation: number;
  nullDepthDb: number;
  snrDb: number;
}

/** sampleMetrics' bitIdentical alone (the same test, x === y for every i, length > 0), stopping at the first difference. */
export function samplesEqual(a: Float32Array, aStart: number, b: Float32Array, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return length > 0;
}

export function sampleMetrics(
  a: Float32Array,
  aStart: number,
  b: Float32Array,
  bStart: number,
  length: number,
): SampleMetrics {
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  let sdd = 0;
  let maxAbs = 0;
  let identical = true;
  let nan = false;
  for (let i = 0; i < length; i++) {
    const x = a[aStart + i];
    const y = b[bStart + i];
    const d = x - y;
    // Object.is would be exact about −0 and NaN; bit-identical here means equal values, so −0 = +0
    // (a float32 WAV stores them differently, but they play the same) and NaN ≠ anything.
    if (x !== y) identical = false;
    const ad = Math.abs(d);
    if (ad > maxAbs) maxAbs = ad;
    else if (ad !== ad) nan = true;
    sa += x;
    sb += y;
    saa += x * x;
    sbb += y * y;
    sab += x * y;
    sdd += d * d;
  }
  const meanA = sa / length;
  const meanB = sb / length;
  const covariance = sab - length * meanA * meanB;
  const varA = saa - length * meanA * meanA;
  const varB = sbb - length * meanB * meanB;
  const correlation =
    varA > 0 && varB > 0 ? Math.max(-1, Math.min(1, covariance / Math.sqrt(varA * varB))) : NaN;
  const nullDepthDb = ratioDb(sdd, saa);
  return {
    comparedLength: length,
    bitIdentical: identical && length > 0,
    maxAbsDiff: nan ? NaN : maxAbs,
    correlation: nan ? NaN : correlation,
    nullDepthDb,
    snrDb: -nullDepthDb,
  };
}

/** 10·log10(num/den) with 0/0 = −Infinity (nothing differs from nothing). */
export function ratioDb(num: number, den: number): number {
  if (num === 0) return -Infinity;
  return 10 * Math.log10(num / den);
}
