/** Sample peak and RMS levels in dBFS (full scale = ±1.0; a full-scale sine reads −3.01 dBFS RMS). */

/** 20·log10(max |x|); −Infinity for silence or an empty signal, NaN if any sample is NaN. */
export function samplePeakDbfs(signal: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < signal.length; i++) {
    const v = Math.abs(signal[i]);
    if (v > peak) peak = v;
    else if (v !== v) return NaN;
  }
  return 20 * Math.log10(peak);
}

/** 10·log10(mean x²), Float64 accumulator; −Infinity for silence or an empty signal. */
export function rmsDbfs(signal: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < signal.length; i++) sum += signal[i] * signal[i];
  return rmsDbfsOfSum(sum, signal.length);
}

/** rmsDbfs from Σx² over `length` samples (summed in ascending order, as rmsDbfs sums). */
export function rmsDbfsOfSum(sumOfSquares: number, length: number): number {
  return length === 0 ? -Infinity : 10 * Math.log10(sumOfSquares / length);
}

/** Largest |x|, NaN samples skipped: the peak of a difference, for scaling its track so a tiny one is seen. */
export function maxAbs(x: Float32Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const v = Math.abs(x[i]);
    if (v > m) m = v;
  }
  return m;
}
