import type { LogitStats, StageCounts, StepRecord } from '../trace/step-record.js';
import type { DivergenceStage } from './divergence.js';
import { closeEnough, type Tolerances } from './tolerances.js';

export interface StepDifference {
  stage: DivergenceStage;
  codebook?: number;
  detail: string;
}

const fmt = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x));

/** Largest |a − b| over mean, std, min, max and the top-5 logits; NaN when one side is NaN and the other not. */
export function maxStatDiff(a: LogitStats, b: LogitStats): number {
  let worst = 0;
  for (const [x, y] of statPairs(a, b)) {
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    if (x === y) continue;
    const d = Math.abs(x - y);
    if (Number.isNaN(d)) return NaN;
    worst = Math.max(worst, d);
  }
  return worst;
}

/** The largest finite |a − b| of one step over the talker and code-predictor logit statistics, and where; null when all equal. */
export function largestStepDiff(a: StepRecord, b: StepRecord): { value: number; field: string } | null {
  const groups: [LogitStats | undefined, LogitStats | undefined, string][] = [[a.logits, b.logits, 'talker']];
  const n = Math.min(a.codePredictorLogits?.length ?? 0, b.codePredictorLogits?.length ?? 0);
  for (let c = 0; c < n; c++) groups.push([a.codePredictorLogits![c], b.codePredictorLogits![c], `code-predictor codebook ${c + 1}`]);
  let best: { value: number; field: string } | null = null;
  for (const [x, y, what] of groups) {
    if (!x || !y) continue;
    for (const [u, v, name] of statPairs(x, y)) {
      const d = Math.abs(u - v);
      if (u === v || !Number.isFinite(d)) continue;
      if (best === null || d > best.value) best = { value: d, field: `${what} ${name}` };
    }
  }
  return best;
}

function statPairs(a: LogitStats, b: LogitStats): [number, number, string][] {
  const pairs: [number, number, string][] = [
    [a.mean, b.mean, 'mean'],
    [a.std, b.std, 'std'],
    [a.min, b.min, 'min'],
    [a.max, b.max, 'max'],
  ];
  const n = Math.min(a.top5.length, b.top5.length);
  for (let i = 0; i < n; i++) pairs.push([a.top5[i].logit, b.top5[i].logit, `top-${i + 1} logit`]);
  return pairs;
}

/** The first statistic outside tolerance, in words, or null when all match. */
export function statsDiffer(a: LogitStats, b: LogitStats, tol: Tolerances, what: string): string | null {
  for (const [x, y, name] of statPairs(a, b)) {
    if (!closeEnough(x, y, tol)) {
      return `${what} ${name}: ${fmt(x)} vs ${fmt(y)} (|Δ| ${fmt(Math.abs(x - y))} > ${tol.logitAbs}${tol.logitRel ? ` + ${tol.logitRel}·|x|` : ''})`;
    }
  }
  return null;
}

function countsDiffer(a: StepRecord, b: StepRecord, key: keyof StageCounts): string | null {
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
 * difference, or null when the step matches under `tol`.
 */
export function compareStep(a: StepRecord, b: StepRecord, tol: Tolerances): StepDifference | null {
  const talker = countsDiffer(a, b, 'talker') ?? statsDiffer(a.logits, b.logits, tol, 'talker logit');
  if (talker) return { stage: 'talker-logits', codebook: 0, detail: talker };
  if (a.codes[0] !== b.codes[0]) return { stage: 'sampled-code', codebook: 0, detail: `code 0: ${a.codes[0]} vs ${b.codes[0]}` };

  const q = Math.max(a.codes.length, b.codes.length);
  for (let c = 1; c < q; c++) {
    const la = a.codePredictorLogits?.[c - 1];
    const lb = b.codePredictorLogits?.[c - 1];
    const logits = la && lb ? statsDiffer(la, lb, tol, `code-predictor codebook ${c} logit`) : null;
    if (logits) return { stage: 'code-predictor', codebook: c, detail: logits };
    if (a.codes[c] !== b.codes[c]) return { stage: 'code-predictor', codebook: c, detail: `code ${c}: ${a.codes[c]} vs ${b.codes[c]}` };
  }
  const predictor = countsDiffer(a, b, 'codePredictor');
  if (predictor) return { stage: 'code-predictor', detail: predictor };
  const vocoder = countsDiffer(a, b, 'vocoder');
  if (vocoder) return { stage: 'vocoder', detail: vocoder };
  return null;
}
