import type { StageCounts, TraceLogitStats, TraceStep } from '../trace/step-record.js';
import { AbsDiffFold, type PairCounts } from './abs-diff.js';
import type { DivergenceStage } from './divergence.js';
import { closeEnough, type Tolerances } from './tolerances.js';

export interface StepDifference {
  stage: DivergenceStage;
  codebook?: number;
  detail: string;
}

const fmt = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x));

/**
 * Largest |a − b| over the mean, std, min, max and top-5 logits both sides have; NaN when one side is
 * NaN and the other not, or when every shared value is non-finite (nothing measured: not a 0); null
 * when they share none.
 */
export function maxStatDiff(a: TraceLogitStats, b: TraceLogitStats): number | null {
  const pairs = statPairs(a, b);
  if (pairs.length === 0) return null;
  const fold = new AbsDiffFold();
  for (const [x, y] of pairs) fold.add(x, y);
  return fold.value();
}

/**
 * The largest finite |a − b| of one step over the talker and code-predictor logit statistics, and where
 * (null when all finite ones are equal), and how many pairs were finite and how many not.
 */
export function largestStepDiff(a: TraceStep, b: TraceStep): { largest: { value: number; field: string } | null; counts: PairCounts } {
  const groups: [TraceLogitStats | undefined, TraceLogitStats | undefined, string][] = [[a.logits, b.logits, 'talker']];
  const n = Math.min(a.codePredictorLogits?.length ?? 0, b.codePredictorLogits?.length ?? 0);
  for (let c = 0; c < n; c++) groups.push([a.codePredictorLogits![c], b.codePredictorLogits![c], `code-predictor codebook ${c + 1}`]);
  let best: { value: number; field: string } | null = null;
  const counts = { finite: 0, nonFinite: 0 };
  for (const [x, y, what] of groups) {
    if (!x || !y) continue;
    for (const [u, v, name] of statPairs(x, y)) {
      const d = Math.abs(u - v);
      if (Number.isFinite(u) && Number.isFinite(v)) counts.finite++;
      else counts.nonFinite++;
      if (u === v || !Number.isFinite(d)) continue;
      if (best === null || d > best.value) best = { value: d, field: `${what} ${name}` };
    }
  }
  return { largest: best, counts };
}

/** The statistics compared, in this order; argmax is not (the codes are the pick). */
export const COMPARED_STATS = ['mean', 'std', 'min', 'max', 'top5'] as const;

/** Both sides' values of every statistic both have (a partial trace may lack some). */
function statPairs(a: TraceLogitStats, b: TraceLogitStats): [number, number, string][] {
  const pairs: [number, number, string][] = [];
  for (const name of ['mean', 'std', 'min', 'max'] as const) {
    const x = a[name];
    const y = b[name];
    if (x !== undefined && y !== undefined) pairs.push([x, y, name]);
  }
  const n = Math.min(a.top5?.length ?? 0, b.top5?.length ?? 0);
  for (let i = 0; i < n; i++) pairs.push([a.top5![i].logit, b.top5![i].logit, `top-${i + 1} logit`]);
  return pairs;
}

/** The first statistic outside tolerance, in words, or null when all match. */
export function statsDiffer(a: TraceLogitStats, b: TraceLogitStats, tol: Tolerances, what: string): string | null {
  for (const [x, y, name] of statPairs(a, b)) {
    if (!closeEnough(x, y, tol)) {
      return `${what} ${name}: ${fmt(x)} vs ${fmt(y)} (|Δ| ${fmt(Math.abs(x - y))} > ${tol.logitAbs}${tol.logitRel ? ` + ${tol.logitRel}·|x|` : ''})`;
    }
  }
  return null;
}

function countsDiffer(a: TraceStep, b: TraceStep, key: keyof StageCounts): string | null {
  const nanA = a.nan?.[key] ?? 0;
  const nanB = b.nan?.[key] ?? 0;
  const infA = a.inf?.[key] ?? 0;
  const infB = b.inf?.[key] ?? 0;
  if (nanA === nanB && infA === infB) return null;
  return `${key} non-finite values: NaN ${nanA} vs ${nanB}, Inf ${infA} vs ${infB}`;
}

/**
 * Compares one step of both runs in pipeline order — talker logits, sampled code 0, code predictor
 * (codebook by codebook: its logits, then its code), vocoder non-finite counts — and returns the first
 * difference, or null when the step matches under `tol`. Only what both sides recorded is compared
 * (partial traces; compared-fields.ts reports the rest).
 */
export function compareStep(a: TraceStep, b: TraceStep, tol: Tolerances): StepDifference | null {
  const talker = countsDiffer(a, b, 'talker') ?? (a.logits && b.logits ? statsDiffer(a.logits, b.logits, tol, 'talker logit') : null);
  if (talker) return { stage: 'talker-logits', codebook: 0, detail: talker };
  const codes = a.codes && b.codes ? { a: a.codes, b: b.codes } : null;
  if (codes && codes.a[0] !== codes.b[0]) return { stage: 'sampled-code', codebook: 0, detail: `code 0: ${codes.a[0]} vs ${codes.b[0]}` };

  const q = Math.max(a.codes?.length ?? 0, b.codes?.length ?? 0, (a.codePredictorLogits?.length ?? 0) + 1, (b.codePredictorLogits?.length ?? 0) + 1);
  for (let c = 1; c < q; c++) {
    const la = a.codePredictorLogits?.[c - 1];
    const lb = b.codePredictorLogits?.[c - 1];
    const logits = la && lb ? statsDiffer(la, lb, tol, `code-predictor codebook ${c} logit`) : null;
    if (logits) return { stage: 'code-predictor', codebook: c, detail: logits };
    if (codes && codes.a[c] !== codes.b[c]) return { stage: 'code-predictor', codebook: c, detail: `code ${c}: ${codes.a[c]} vs ${codes.b[c]}` };
  }
  const predictor = countsDiffer(a, b, 'codePredictor');
  if (predictor) return { stage: 'code-predictor', detail: predictor };
  const vocoder = countsDiffer(a, b, 'vocoder');
  if (vocoder) return { stage: 'vocoder', detail: vocoder };
  return null;
}
