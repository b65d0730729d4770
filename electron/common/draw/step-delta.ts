import type { Divergence, DivergenceStage } from '../forensics/divergence.js';
import { maxStatDiff } from '../forensics/compare-step.js';

/**
 * Per step, how far A and B are apart at each stage of the pipeline, for the |Δ| lane, the step chart
 * and report.html's step figure (one source for all of them):
 * - talker: the largest |a − b| of its logit statistics (mean, std, min, max, top-5: what the verdict compares);
 * - code predictor: the same for its worst codebook at the step (every codebook's in `perCodebook`);
 * - vocoder: the largest |A − B| of the frame's audio samples (frame N from step N), when both takes are given.
 * Drawn on a log scale, so a 0.019 difference at one step stands out next to a 1e-6 one. A step where a
 * side's statistics are not finite (NaN/Inf) or missing is marked, not dropped; an equal one is 0.
 */
export interface StepDelta {
  step: number;
  /** Talker: largest finite |Δ|; null when not measurable (a side missing or not finite). 0 when equal. */
  delta: number | null;
  /** Which side(s) hold a NaN/Inf talker statistic at this step, e.g. "B NaN"; undefined when both are finite. */
  nonFinite?: string;
  /** A side has no record at this step (one run stopped earlier). */
  missing?: 'A' | 'B';
  /** Summaries of both sides for the readout: "mean 0.312 · max 9.1". */
  a?: { mean: number; max: number };
  b?: { mean: number; max: number };
  /** Code predictor: its worst codebook (1..Q-1) and that |Δ|; absent when the report has no code-predictor logits for the step. */
  codePredictor?: StageDelta & { codebook: number; perCodebook?: (number | null)[] };
  /** Vocoder: the frame's largest |A − B| of the samples; absent without both takes. */
  vocoder?: StageDelta;
}

/** One stage's |Δ| at a step: null when not measurable, with why. */
export interface StageDelta {
  delta: number | null;
  nonFinite?: string;
  missing?: 'A' | 'B';
}

export type Stage = 'talker' | 'code-predictor' | 'vocoder';

/** The stages in pipeline order, as the rows of the lane and the series of the chart. */
export const STAGES: readonly Stage[] = ['talker', 'code-predictor', 'vocoder'];

export const STAGE_LABELS: Record<Stage, string> = { talker: 'talker', 'code-predictor': 'code predictor', vocoder: 'vocoder' };

/** The row a divergence stage is drawn in: a flipped code 0 is the talker's pick. */
export function stageOfDivergence(stage: DivergenceStage | null): Stage | undefined {
  if (stage === null) return undefined;
  return stage === 'talker-logits' || stage === 'sampled-code' ? 'talker' : stage;
}

/** The step's |Δ| at one stage; undefined when the stage was not measured there. */
export function stageDelta(d: StepDelta, stage: Stage): StageDelta | undefined {
  if (stage === 'talker') return d.delta !== null || d.nonFinite || d.missing ? { delta: d.delta, nonFinite: d.nonFinite, missing: d.missing } : undefined;
  return stage === 'code-predictor' ? d.codePredictor : d.vocoder;
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

/** The worst code-predictor codebook of a row (the report's codePredictorDiff); a NaN in any codebook wins. */
function worstCodebook(diffs: readonly (number | string | null)[]): NonNullable<StepDelta['codePredictor']> {
  const perCodebook = diffs.map((v) => (v === null ? null : num(v)));
  let worst: NonNullable<StepDelta['codePredictor']> = { delta: null, codebook: 1, perCodebook };
  perCodebook.forEach((v, k) => {
    if (v === null || worst.nonFinite) return;
    if (!Number.isFinite(v)) worst = { delta: null, codebook: k + 1, nonFinite: 'not finite', perCodebook };
    else if (worst.delta === null || v > worst.delta) worst = { delta: v, codebook: k + 1, perCodebook };
  });
  return worst;
}

/** `frames` (frame-delta.ts) gives the vocoder row: entry N − 1 for step N. */
export function stepDeltas(d: Pick<Divergence, 'steps'>, frames?: readonly StageDelta[]): StepDelta[] {
  return d.steps.map((s, i) => {
    const out: StepDelta = { step: s.step, delta: null };
    if (s.a) out.a = { mean: num(s.a.mean), max: num(s.a.max) };
    if (s.b) out.b = { mean: num(s.b.mean), max: num(s.b.max) };
    if (s.codePredictorDiff && s.codePredictorDiff.length > 0) out.codePredictor = worstCodebook(s.codePredictorDiff);
    if (frames?.[i]) out.vocoder = frames[i];
    // Neither side has talker logits here (a codes-only trace): nothing to draw, not a missing side.
    if (!s.a && !s.b) return out;
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
    const delta = maxStatDiff(s.a, s.b);
    // Mean to max finite, a top-5 logit not: nothing measured, said so.
    if (delta !== null && Number.isNaN(delta)) out.nonFinite = 'top-5 not finite';
    else out.delta = delta;
    return out;
  });
}

/** A log-scale y range: `min` is the floor, kept for |Δ| = 0 (drawn and labelled "0"), below every non-zero value. */
export interface DeltaRange {
  min: number;
  max: number;
}

/**
 * Log-scale y range for the |Δ| of `stages`: from under the smallest non-zero |Δ| to a decade above the largest,
 * always holding the tolerance, so its line is on the scale. The floor (`min`) is at least half a decade
 * below both, so an equal step (|Δ| 0), drawn there, never looks like a measured value.
 */
export function deltaRange(deltas: readonly StepDelta[], tolerance?: number, stages: readonly Stage[] = ['talker']): DeltaRange {
  let lo = Infinity;
  let hi = 0;
  for (const d of deltas) {
    for (const stage of stages) {
      const v = stageDelta(d, stage)?.delta;
      if (v === null || v === undefined || !(v > 0)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (tolerance !== undefined && tolerance > 0 && Number.isFinite(tolerance)) {
    lo = Math.min(lo, tolerance);
    hi = Math.max(hi, tolerance);
  }
  if (!(hi > 0)) return { min: 1e-7, max: 1 };
  return { min: 10 ** Math.floor(Math.log10(lo) - 0.5), max: 10 ** Math.ceil(Math.log10(hi) + 0.1) };
}

/** Height fraction (0 bottom … 1 top) of |Δ| on the lane's log scale; 0 (the floor) for |Δ| = 0. */
export function logFraction(delta: number, range: DeltaRange): number {
  if (!(delta > 0)) return 0;
  const f = Math.log10(delta / range.min) / Math.log10(range.max / range.min);
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/** A |Δ| as the hover says it: every significant digit a reader needs, "0 (equal)" for none, never rounded to 0. */
export function deltaText(v: StageDelta | undefined): string {
  if (!v) return 'not recorded';
  if (v.missing) return `${v.missing === 'A' ? 'B' : 'A'} only`;
  if (v.nonFinite) return `not finite (${v.nonFinite})`;
  if (v.delta === null) return 'n/a';
  return v.delta === 0 ? '0 (equal)' : v.delta.toPrecision(4);
}

/** One row of the per-step views: a stage, its log range and the tolerance it is judged under. */
export interface StageRow {
  stage: Stage;
  range: DeltaRange;
  tolerance: number | undefined;
  /** A row with nothing measured, and why ("no audio in this pair"): drawn empty with these words. */
  absent?: string;
}

/**
 * Why the vocoder row of a step comparison has nothing in it, from which takes it has audio for: "no audio in
 * this pair" (two traces without WAVs), "only A's audio in this pair"; undefined with both.
 */
export function vocoderAbsentWords(audioA: boolean, audioB: boolean): string | undefined {
  if (audioA && audioB) return undefined;
  if (!audioA && !audioB) return 'no audio in this pair';
  return `only ${audioA ? 'A' : 'B'}'s audio in this pair`;
}

/**
 * The rows for the stages measured at any step, in pipeline order: talker and code predictor on one range under
 * the logit tolerance (the same statistics, so their heights compare), the vocoder on its own under the audio
 * tolerance (sample differences).
 */
export function stageRows(deltas: readonly StepDelta[], tolerances: { logitAbs?: number; audioAbs?: number } | undefined, vocoderAbsent?: string): StageRow[] {
  const present = STAGES.filter((stage) => deltas.some((d) => stageDelta(d, stage) !== undefined));
  const logit = present.filter((s) => s !== 'vocoder');
  const logitRange = deltaRange(deltas, tolerances?.logitAbs, logit);
  const rows: StageRow[] = present.map((stage) =>
    stage === 'vocoder'
      ? { stage, range: deltaRange(deltas, tolerances?.audioAbs, ['vocoder']), tolerance: tolerances?.audioAbs }
      : { stage, range: logitRange, tolerance: tolerances?.logitAbs },
  );
  // The pipeline's last stage is never left out of a step comparison: without the audio its row says so.
  if (vocoderAbsent && rows.length > 0 && !present.includes('vocoder')) rows.push({ stage: 'vocoder', range: deltaRange([], tolerances?.audioAbs, []), tolerance: undefined, absent: vocoderAbsent });
  return rows;
}

/** The first divergence's own code-predictor codebook (1..Q-1): what the verdict names, at its step. */
export interface VerdictCodebook {
  step: number;
  codebook: number;
}

export function verdictCodebook(d: Pick<Divergence, 'firstStep' | 'stage' | 'codebook'> | undefined): VerdictCodebook | undefined {
  return d && d.firstStep !== null && d.stage === 'code-predictor' && d.codebook !== undefined ? { step: d.firstStep, codebook: d.codebook } : undefined;
}

/**
 * The code predictor's |Δ| at a step, with its worst codebook (what the views plot): "0.9512 (codebook 8)". At the
 * first divergence, when the verdict names another codebook (the first past the tolerance, or whose code
 * differs), that one is called out with its own |Δ|: "0.9512 (worst: codebook 8; the verdict's codebook 2: 0.5000)".
 */
export function codePredictorText(d: StepDelta, verdict?: VerdictCodebook): string {
  const cp = d.codePredictor;
  const words = deltaText(cp);
  if (!cp) return words;
  if (verdict && verdict.step === d.step && verdict.codebook !== cp.codebook) {
    const own = cp.perCodebook?.[verdict.codebook - 1];
    const ownWords = own === undefined ? 'not recorded' : deltaText({ delta: own !== null && Number.isFinite(own) ? own : null, nonFinite: own !== null && !Number.isFinite(own) ? 'not finite' : undefined });
    return `${words} (worst: codebook ${cp.codebook}; the verdict's codebook ${verdict.codebook}: ${ownWords})`;
  }
  return (cp.delta ?? 0) > 0 ? `${words} (codebook ${cp.codebook})` : words;
}
