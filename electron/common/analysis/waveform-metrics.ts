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

/** The sample metrics' bitIdentical alone (the same test, x === y for every i, length > 0), stopping at the first difference. */
export function samplesEqual(
  a: Float32Array,
  aStart: number,
  b: Float32Array,
  bStart: number,
  length: number,
): boolean {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return length > 0;
}

/**
 * The Float64 sums the sample metrics are made from (metricsFromSums), each added in ascending i: Σx, Σy, Σx², Σy², Σxy, Σ(x−y)²
 * (x = A[aStart + i], y = B[bStart + i]). compareSignals reads some of them again (an RMS level, the
 * matched null's integer fit), where summing the same terms in the same order gives the same bits.
 */
export interface SampleSums {
  length: number;
  sa: number;
  sb: number;
  saa: number;
  sbb: number;
  sab: number;
  sdd: number;
  maxAbs: number;
  identical: boolean;
  nan: boolean;
}

export function sampleSums(
  a: Float32Array,
  aStart: number,
  b: Float32Array,
  bStart: number,
  length: number,
): SampleSums {
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
  return { length, sa, sb, saa, sbb, sab, sdd, maxAbs, identical, nan };
}

export function metricsFromSums({
  length,
  sa,
  sb,
  saa,
  sbb,
  sab,
  sdd,
  maxAbs,
  identical,
  nan,
}: SampleSums): SampleMetrics {
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
