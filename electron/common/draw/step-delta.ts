import type { Divergence } from '../forensics/divergence.js';

/**
 * Per step, how far A's and B's talker logit statistics are apart: |Δ| = the largest |a − b| over mean,
 * std, min and max. Drawn on a log scale, so a 0.019 difference at one step stands out next to a
 * 1e-6 one. A step where a side's statistics are not finite (NaN/Inf) or missing is marked, not dropped.
 */
export interface StepDelta {
  step: number;
  /** Largest finite |Δ|; null when not measurable (a side missing or not finite). 0 when equal. */
  delta: number | null;
  /** Which side(s) hold a NaN/Inf statistic at this step, e.g. "B NaN"; undefined when both are finite. */
  nonFinite?: string;
  /** A side has no record at this step (one run stopped earlier). */
  missing?: 'A' | 'B';
  /** Summaries of both sides for the readout: "mean 0.312 · max 9.1". */
  a?: { mean: number; max: number };
  b?: { mean: number; max: number };
}

const FIELDS = ['mean', 'std', 'min', 'max'] as const;
const num = (v: number | string | undefined): number => (typeof v === 'string' ? Number(v) : (v ?? NaN));

function badness(stats: Partial<Record<(typeof FIELDS)[number], number | string>> | null): string | undefined {
  if (!stats) return undefined;
  // A partial trace may lack a statistic: only the recorded ones count.
  const values = FIELDS.filter((f) => stats[f] !== undefined).map((f) => num(stats[f]));
  if (values.some(Number.isNaN)) return 'NaN';
  if (values.some((v) => !Number.isFinite(v))) return 'Inf';
  return undefined;
}

export function stepDeltas(d: Pick<Divergence, 'steps'>): StepDelta[] {
  return d.steps.map((s) => {
    const out: StepDelta = { step: s.step, delta: null };
    if (s.a) out.a = { mean: num(s.a.mean), max: num(s.a.max) };
    if (s.b) out.b = { mean: num(s.b.mean), max: num(s.b.max) };
    if (!s.a || !s.b) {
      out.missing = s.a ? 'B' : 'A';
      return out;
    }
    const badA = badness(s.a);
    const badB = badness(s.b);
    if (badA || badB) {
      out.nonFinite = [badA && `A ${badA}`, badB && `B ${badB}`].filter(Boolean).join(', ');
      return out;
    }
    let delta = 0;
    for (const f of FIELDS) if (s.a[f] !== undefined && s.b[f] !== undefined) delta = Math.max(delta, Math.abs(num(s.a[f]) - num(s.b[f])));
    out.delta = delta;
    return out;
  });
}

/**
 * Log-scale y range for the |Δ| lane: a decade below the smallest non-zero |Δ| to a decade above the largest,
 * widened to hold the tolerance when one is given, so its line is on the scale.
 */
export function deltaRange(deltas: readonly StepDelta[], tolerance?: number): { min: number; max: number } {
  let lo = Infinity;
  let hi = 0;
  for (const d of deltas) {
    if (d.delta === null || d.delta <= 0) continue;
    lo = Math.min(lo, d.delta);
    hi = Math.max(hi, d.delta);
  }
  if (tolerance !== undefined && tolerance > 0 && Number.isFinite(tolerance) && hi > 0) {
    lo = Math.min(lo, tolerance);
    hi = Math.max(hi, tolerance);
  }
  if (!(hi > 0)) return { min: 1e-7, max: 1 };
  return { min: 10 ** Math.floor(Math.log10(lo) - 0.5), max: 10 ** Math.ceil(Math.log10(hi) + 0.1) };
}

/** Height fraction (0 bottom … 1 top) of |Δ| on the lane's log scale. */
export function logFraction(delta: number, range: { min: number; max: number }): number {
  if (!(delta > 0)) return 0;
  const f = Math.log10(delta / range.min) / Math.log10(range.max / range.min);
  return f < 0 ? 0 : f > 1 ? 1 : f;
}
