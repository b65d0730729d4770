import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import type { TraceStep } from '../trace/step-record.js';
import { CodeFlip, classifyFlip, rowDrift, rowStats, rowsOf } from './near-tie.js';

/**
 * Teacher-forced drift (docs/forensics.md "Teacher forcing"). B was fed A's codes at every step, so
 * B's logits at step s are computed from the same inputs as A's: their difference is B's own numeric
 * drift at that step, not a cascade from an earlier flip, and every step where B's own pick differs
 * from A's (a "would-flip") can be classified like a first flip (near-tie.ts).
 */
export const DriftTrend = z.object({
  /** Least-squares slope of the drift curve against the step number (logit units per step). */
  slopePerStep: JsonNumber,
  /** Mean drift over the first and the last quarter of the steps (at least one step each). */
  firstQuarterMean: JsonNumber,
  lastQuarterMean: JsonNumber,
  /**
   * growing: last quarter > 2× first; shrinking: last < first / 2; else flat (both 0: flat); non-finite:
   * a measured step is NaN; not-measured: no step was measured (the three numbers are then NaN).
   */
  direction: z.enum(['flat', 'growing', 'shrinking', 'non-finite', 'not-measured']),
});
export type DriftTrend = z.infer<typeof DriftTrend>;

export const TeacherForcedDrift = z.object({
  /**
   * Per step (index 0 = step 1): the largest |A − B| of any logit statistic of the step (talker and code
   * predictor rows); NaN when a non-finite value differs; null when no row of the step has a statistic
   * recorded on both sides (not measured: not a drift of 0). Peak, trend and equivalence count only the
   * measured steps.
   */
  curve: z.array(JsonNumber.nullable()),
  /** Steps with a measured drift (non-null in `curve`). Absent in reports made before unmeasured steps were told apart. */
  measuredSteps: z.number().int().nonnegative().optional(),
  peak: z.object({ step: z.number().int().positive(), value: JsonNumber }).nullable(),
  trend: DriftTrend,
  /** Every step and codebook where B's own pick differs from A's code, classified (near-tie.ts). */
  wouldFlip: z.array(CodeFlip),
  counts: z.object({ nearTie: z.number().int(), real: z.number().int(), unknown: z.number().int() }),
  threshold: z.number().nonnegative(),
  /** No real or unknown would-flip, at least one step measured, and every measured step finite and within the threshold. */
  numericallyEquivalent: z.boolean(),
});
export type TeacherForcedDrift = z.infer<typeof TeacherForcedDrift>;

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The trend over the measured steps only (null entries skipped; the slope is against their step numbers). */
export function driftTrend(curve: readonly (number | null)[]): DriftTrend {
  const steps: number[] = [];
  const ys: number[] = [];
  curve.forEach((y, i) => {
    if (y === null) return;
    steps.push(i + 1);
    ys.push(y);
  });
  const n = ys.length;
  if (n === 0) return { slopePerStep: NaN, firstQuarterMean: NaN, lastQuarterMean: NaN, direction: 'not-measured' };
  if (ys.some((x) => !Number.isFinite(x))) return { slopePerStep: NaN, firstQuarterMean: NaN, lastQuarterMean: NaN, direction: 'non-finite' };
  const k = Math.max(1, Math.floor(n / 4));
  const first = mean(ys.slice(0, k));
  const last = mean(ys.slice(n - k));
  const xm = mean(steps);
  const ym = mean(ys);
  let sxy = 0;
  let sxx = 0;
  ys.forEach((y, i) => {
    sxy += (steps[i] - xm) * (y - ym);
    sxx += (steps[i] - xm) ** 2;
  });
  const direction = last > 2 * first ? 'growing' : last < first / 2 ? 'shrinking' : 'flat';
  return { slopePerStep: sxx === 0 ? 0 : sxy / sxx, firstQuarterMean: first, lastQuarterMean: last, direction };
}

/** The drift curve, its trend and the classified would-flips of a teacher-forced pair (B fed A's codes). */
export function teacherForcedDrift(stepsA: readonly TraceStep[], stepsB: readonly TraceStep[], threshold: number): TeacherForcedDrift {
  const drift = new DriftCurve(threshold);
  for (let i = 0; i < Math.min(stepsA.length, stepsB.length); i++) drift.add(stepsA[i], stepsB[i]);
  return drift.result();
}

/** teacherForcedDrift fed one step pair at a time, in order, for traces read as a stream. */
export class DriftCurve {
  private readonly curve: (number | null)[] = [];
  private readonly wouldFlip: CodeFlip[] = [];
  private before: number | null = null; // running drift of every row so far, in pipeline order

  constructor(private readonly threshold: number) {}

  add(a: TraceStep, b: TraceStep): void {
    const step = this.curve.length + 1;
    let worst: number | null = null; // stays null when no row of the step is recorded on both sides
    for (let c = 0; c < Math.max(rowsOf(a), rowsOf(b)); c++) {
      if (a.codes && b.codes && a.codes[c] !== b.codes[c]) this.wouldFlip.push(classifyFlip(a, b, step, c, this.threshold, this.before));
      const ra = rowStats(a, c);
      const rb = rowStats(b, c);
      const d = ra && rb ? rowDrift(ra, rb) : null;
      if (d === null) continue;
      worst = worst === null ? d : Number.isNaN(worst) || Number.isNaN(d) ? NaN : Math.max(worst, d);
      this.before = this.before === null ? d : Number.isNaN(this.before) || Number.isNaN(d) ? NaN : Math.max(this.before, d);
    }
    this.curve.push(worst);
  }

  result(): TeacherForcedDrift {
    const { curve, wouldFlip, threshold } = this;
    let peak: TeacherForcedDrift['peak'] = null;
    for (let i = 0; i < curve.length; i++) {
      const v = curve[i];
      if (v === null) continue;
      if (Number.isNaN(v)) {
        peak = { step: i + 1, value: NaN }; // the first non-finite difference outranks any number
        break;
      }
      if (peak === null || v > peak.value) peak = { step: i + 1, value: v };
    }
    const counts = { nearTie: 0, real: 0, unknown: 0 };
    for (const f of wouldFlip) counts[f.kind === 'near-tie' ? 'nearTie' : f.kind]++;
    const measured = curve.filter((x): x is number => x !== null);
    const within = measured.length > 0 && measured.every((x) => Number.isFinite(x) && x <= threshold);
    return {
      curve,
      measuredSteps: measured.length,
      peak,
      trend: driftTrend(curve),
      wouldFlip,
      counts,
      threshold,
      numericallyEquivalent: counts.real === 0 && counts.unknown === 0 && within,
    };
  }
}

const g = (x: number): string => (Number.isNaN(x) ? 'NaN' : x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(1) : String(Number(x.toPrecision(2))));
const BARS = '▁▂▃▄▅▆▇█';

/**
 * The curve as one line of bars, at most `width` wide (each bar the largest measured value of its steps;
 * scaled to the peak; ✕ = non-finite; · = no step of the bar measured).
 */
export function sparkline(curve: readonly (number | null)[], width = 64): string {
  if (curve.length === 0) return '';
  const per = Math.ceil(curve.length / width);
  const buckets: (number | null)[] = [];
  for (let i = 0; i < curve.length; i += per) {
    const part = curve.slice(i, i + per).filter((x): x is number => x !== null);
    buckets.push(part.length === 0 ? null : part.some(Number.isNaN) ? NaN : Math.max(...part));
  }
  const top = Math.max(...buckets.filter((v): v is number => v !== null && Number.isFinite(v)), 0);
  return buckets.map((v) => (v === null ? '·' : Number.isNaN(v) ? '✕' : BARS[top === 0 ? 0 : Math.min(7, Math.floor((v / top) * 7.999))])).join('');
}

/** "steps 1–32" or "steps 1–32; 20 measured, · = no logits recorded on both sides". */
function stepsWords(d: TeacherForcedDrift): string {
  const measured = d.measuredSteps ?? d.curve.length;
  return `steps 1–${d.curve.length}${measured < d.curve.length ? `; ${measured} measured, · = no logits recorded on both sides` : ''}`;
}

function flipList(flips: readonly CodeFlip[]): string {
  const shown = flips.slice(0, 8).map((f) => `step ${f.step} codebook ${f.codebook} (${f.codeA} → ${f.codeB}, ${f.kind}${f.pairDrift === null ? '' : `, pair drift ${g(f.pairDrift)}`})`);
  return shown.join('; ') + (flips.length > 8 ? `; … (${flips.length} in all)` : '');
}

/** The teacher-forced drift in words, for the CLI summary and report.md. */
export function teacherForcedLines(d: TeacherForcedDrift): string[] {
  const t = d.trend;
  const lines = [`B was fed A's codes at every step (teacher forcing): B's own logit drift per step, with no cascade`];
  if (t.direction === 'not-measured') {
    lines.push(`Drift: not measured: no step of the ${d.curve.length} has logit statistics recorded on both sides`);
  } else {
    lines.push(
      `Drift (max |Δ| of the step's logit statistics): peak ${d.peak ? `${g(d.peak.value)} at step ${d.peak.step}` : '—'}; trend ${t.direction}` +
        (t.direction === 'non-finite' ? '' : ` (first quarter mean ${g(t.firstQuarterMean)}, last ${g(t.lastQuarterMean)}, slope ${g(t.slopePerStep)}/step)`),
      `  ${sparkline(d.curve)}  (${stepsWords(d)}, scaled to the peak)`,
    );
  }
  const c = d.counts;
  lines.push(d.wouldFlip.length === 0
    ? "Would-flip steps: none: B's own pick equals A's code at every step and codebook"
    : `Would-flip steps (B's own pick ≠ A's code): ${c.nearTie} near-tie, ${c.real} real, ${c.unknown} unknown: ${flipList(d.wouldFlip)}`);
  lines.push(d.numericallyEquivalent
    ? `Numerically equivalent under teacher forcing: no real would-flip, drift within the near-tie gap ${d.threshold} at every ${(d.measuredSteps ?? d.curve.length) < d.curve.length ? 'measured ' : ''}step`
    : `Not numerically equivalent under teacher forcing: ${c.real + c.unknown > 0 ? `${c.real} real and ${c.unknown} unclassified would-flip(s)` : t.direction === 'not-measured' ? 'no drift was measured' : `drift above the near-tie gap ${d.threshold}`}` +
      (d.peak && !(d.peak.value <= d.threshold) ? ` (peak ${g(d.peak.value)} at step ${d.peak.step})` : ''));
  return lines;
}
