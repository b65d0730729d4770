import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { nonFiniteWords } from '../../../../electron/common/forensics/logit-closeness.js';
import type { Tolerances } from '../../../../electron/common/forensics/tolerances.js';
import { verdictOf } from '../../../../electron/common/forensics/verdict.js';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';
import type { Verdict } from '../../../../electron/common/report/report.js';

/** The tolerances the studio can change, as `parity compare --logit-tol / --audio-tol` set them. */
export interface UiTolerances {
  logitAbs: number;
  audioAbs: number;
}

export interface Judgement {
  divergence: Divergence;
  verdict: Verdict;
}

interface JudgedParts {
  a?: { steps?: StepRecord[]; frameRate?: number };
  b?: { steps?: StepRecord[] };
  divergence?: Divergence;
  metrics?: { bitIdentical: boolean };
}

/** Whether the report holds both sides' step records, so it can be judged again under other tolerances. */
export function canRejudge(c: ComparisonResult): boolean {
  const r = c.report as JudgedParts;
  return Array.isArray(r.a?.steps) && Array.isArray(r.b?.steps) && r.divergence !== undefined;
}

const cache = new WeakMap<ComparisonResult, Map<string, Judgement>>();

/**
 * The comparison judged again under `tol`, by the CLI's own code: localise (first divergence) and
 * verdictOf over the report's step records and the two takes, as `parity compare --logit-tol X
 * --audio-tol Y` would judge the same runs. Memoised per comparison and tolerances.
 */
export function rejudge(c: ComparisonResult, tol: UiTolerances): Judgement | undefined {
  if (!canRejudge(c)) return undefined;
  const key = `${tol.logitAbs}|${tol.audioAbs}`;
  let byTol = cache.get(c);
  if (!byTol) cache.set(c, (byTol = new Map()));
  const hit = byTol.get(key);
  if (hit) return hit;
  const r = c.report as JudgedParts;
  const previous: Partial<Tolerances> = r.divergence?.tolerances ?? {};
  const sampleRate = c.a?.sampleRate ?? c.b?.sampleRate;
  const audio = c.a && c.b && sampleRate ? { a: c.a.samples, b: c.b.samples, sampleRate } : undefined;
  const divergence = localise(r.a!.steps!, r.b!.steps!, {
    tolerances: { logitRel: previous.logitRel ?? 0, nearTieGap: previous.nearTieGap, logitAbs: tol.logitAbs, audioAbs: tol.audioAbs },
    frameRate: r.a?.frameRate,
    audio,
  });
  const judged = { divergence, verdict: verdictOf(divergence, r.metrics) };
  byTol.set(key, judged);
  return judged;
}

/** The next 1-2-5 value at or above x (a tolerance that just admits x), e.g. 0.019 → 0.02, 3.1e-5 → 5e-5. */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 0;
  const decade = 10 ** Math.floor(Math.log10(x));
  const m = [1, 2, 5, 10].find((k) => k * decade >= x * (1 - 1e-12))!;
  return +(m * decade).toPrecision(1);
}

/** What the tolerance line offers: tolerances that admit the comparison, or why none can. */
export type ToleranceSuggestion = { tolerances: UiTolerances } | { refusal: string };

/** As large as a tolerance can be and still be a number: what it cannot admit, no tolerance admits. */
const WIDEST: UiTolerances = { logitAbs: Number.MAX_VALUE, audioAbs: Number.MAX_VALUE };

/**
 * Tolerances that would call this comparison within tolerance, when only numbers differ: the codes
 * equal at every step and the takes equally long. Undefined when a code differs (no tolerance admits
 * that, and the verdict already says where) or nothing is measured. A refusal, in words, when the codes
 * are equal but even the widest tolerance leaves it diverged: a NaN or an infinity on one side only,
 * which no number makes match.
 */
export function suggestTolerances(c: ComparisonResult, maxAbsDiff: number, sameLength: boolean): ToleranceSuggestion | undefined {
  const d = (c.report as JudgedParts).divergence;
  if (!d || !canRejudge(c)) return undefined;
  const same = (x: number[] | null, y: number[] | null) => x !== null && y !== null && x.length === y.length && x.every((v, i) => v === y[i]);
  const codesDiffer = d.steps.some((s) => !same(s.codesA, s.codesB));
  if (codesDiffer || !sameLength) return undefined;
  const widest = rejudge(c, WIDEST)!;
  if (widest.verdict === 'diverged') {
    const where = nonFiniteWords(widest.divergence) ?? widest.divergence.detail ?? `step ${widest.divergence.firstStep}`;
    return { refusal: `no tolerance makes a NaN or an infinity match a number: ${where}` };
  }
  const logit = d.largestLogitDiff?.value ?? 0;
  return { tolerances: { logitAbs: Math.max(d.tolerances.logitAbs, niceCeil(logit)), audioAbs: Math.max(d.tolerances.audioAbs, niceCeil(maxAbsDiff)) } };
}
