/**
 * Whether a cross-correlation lag means anything. Below a peak normalised cross-correlation of
 * LAG_MIN_PEAK the two takes are not shifted copies of each other (two unrelated renderings of a
 * prompt peak around 0.1), so the lag is labelled unreliable instead of being reported as a shift.
 * 0.5 is a judgement, not a standard: a shifted copy with noise 6 dB below the signal still peaks at
 * 0.8, and different speech material rarely passes 0.3 at any lag within ±50 ms.
 */
export const LAG_MIN_PEAK = 0.5;

export function lagIsReliable(xcorrPeak: number | string | undefined): boolean {
  const p = typeof xcorrPeak === 'string' ? Number(xcorrPeak) : (xcorrPeak ?? NaN);
  return Number.isFinite(p) && Math.abs(p) >= LAG_MIN_PEAK;
}
