/**
 * Whether a cross-correlation lag means anything: one rule for the studio, the CLI summary, report.md,
 * report.json (`metrics.lagReliable`) and report.html. Below a peak normalised cross-correlation of
 * LAG_MIN_PEAK the two takes are not shifted copies of each other (two unrelated renderings of a
 * prompt peak around 0.1), so the lag, and the gain and matched null measured after shifting by it, are
 * labelled unreliable instead of being reported as a shift and a level difference. 0.5 is a judgement,
 * not a standard: a shifted copy with noise 6 dB below the signal still peaks at 0.8, and different
 * speech material rarely passes 0.3 at any lag within ±50 ms.
 */
export const LAG_MIN_PEAK = 0.5;

export function lagIsReliable(xcorrPeak: number | string | undefined): boolean {
  const p = typeof xcorrPeak === 'string' ? Number(xcorrPeak) : (xcorrPeak ?? NaN);
  return Number.isFinite(p) && Math.abs(p) >= LAG_MIN_PEAK;
}

/** A report's own judgement (`lagReliable`, reports since it was added), else the rule applied to its peak. */
export function reportLagReliable(m: { lagReliable?: boolean; xcorrPeak?: number | string }): boolean {
  return m.lagReliable ?? lagIsReliable(m.xcorrPeak);
}

/** What stands in place of the lag when it is unreliable, with the peak that makes it so. */
export function unreliableLag(xcorrPeak: number | string | undefined): string {
  const p = typeof xcorrPeak === 'string' ? Number(xcorrPeak) : (xcorrPeak ?? NaN);
  return `unreliable: cross-correlation peak ${Number.isFinite(p) ? Math.abs(p).toFixed(2) : String(p)} < ${LAG_MIN_PEAK} (the takes are not shifted copies)`;
}

/** Said after a value measured after shifting B by an unreliable lag (gain, matched null). */
export const AFTER_UNRELIABLE_LAG = ' (lag unreliable: not a shifted copy)';
