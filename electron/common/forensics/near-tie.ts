import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import type { TraceLogitStats, TraceStep } from '../trace/step-record.js';
import { AbsDiffFold } from './abs-diff.js';

/**
 * Near-tie flips (docs/forensics.md "Near-tie flips"). Where the two runs first pick different codes,
 * the picked codes' logits on each side say whether numeric drift could have swapped them:
 *
 * - gapA, gapB: top-1 − top-2 logit of the flipped row on each side (what vLLM 55238 compared);
 * - marginA = A's logit of A's code − A's logit of B's code; marginB = B's logit of B's code − B's
 *   logit of A's code (both ≥ 0 under greedy picks; they equal gapA and gapB when each side's runner-up
 *   is the other side's pick);
 * - pairDrift = |marginA + marginB| = |(lA[a] − lB[a]) − (lA[b] − lB[b])|: how far the two codes' logit
 *   difference moved from A to B. Logits are shift-invariant under softmax, so this is the same in
 *   log-probabilities.
 *
 * The flip is a near-tie when pairDrift ≤ the threshold (tolerances.nearTieGap), real when it is
 * above. A flip from a row identical on both sides, after identical rows, is no numeric effect at all: the sampler
 * drew differently from the same numbers (seeded sampling beside other requests); it is left unknown, saying so. A code missing from the other side's top-5 bounds its logit by the 5th logit, so pairDrift is
 * then a lower bound (`exact: false`): above the threshold it is real, otherwise unknown; unrecorded or
 * non-finite logits are unknown too.
 */

/**
 * Default near-tie threshold, in logit units. vLLM 55238 saw bf16 greedy flips only where the
 * top-1/top-2 gap was below ~0.7; fp16 carries 3 more mantissa bits than bf16 (11 vs 8), so the same
 * rounding gives about 8× smaller drift: 0.7 / 8 ≈ 0.09, rounded up to 0.1. Use `--near-tie-gap 0.7`
 * for bf16 engines. The demo's fp16 flip has pairDrift 0.0024; its stale-feedback fault's is ≥ 1.6.
 */
export const DEFAULT_NEAR_TIE_GAP = 0.1;

export const FlipKind = z.enum(['near-tie', 'real', 'unknown']);
export type FlipKind = z.infer<typeof FlipKind>;

export const CodeFlip = z.object({
  step: z.number().int().positive(),
  /** 0 = the talker's code, 1..Q-1 = the code predictor's. */
  codebook: z.number().int().nonnegative(),
  codeA: z.number().int(),
  codeB: z.number().int(),
  /** Top-1 − top-2 logit of the flipped row on each side; null when fewer than 2 logits were recorded. */
  gapA: JsonNumber.nullable(),
  gapB: JsonNumber.nullable(),
  /** See the file comment; null when a code's logit is not in that side's top-5. */
  marginA: JsonNumber.nullable(),
  marginB: JsonNumber.nullable(),
  /** |marginA + marginB|, or a lower bound of it when `exact` is false; null when not even a bound is known. */
  pairDrift: JsonNumber.nullable(),
  exact: z.boolean(),
  threshold: z.number().nonnegative(),
  kind: FlipKind,
  /**
   * The largest |A − B| of any logit statistic recorded before the flipped row (earlier steps, and the
   * flip step's earlier rows in pipeline order); NaN when a non-finite value differs; null when none.
   */
  driftBefore: JsonNumber.nullable(),
  /** near-tie, and every logit statistic before it within the threshold: the runs are numerically equivalent up to the flip. */
  numericallyEquivalent: z.boolean(),
  /** Why this kind, in words with the numbers (e.g. `the two codes' logit difference moved by 2.44e-3 from A to B (≤ near-tie gap 0.1)`). */
  detail: z.string(),
});
export type CodeFlip = z.infer<typeof CodeFlip>;

/** The logit statistics of codebook c at a step (talker for 0, code predictor for 1..Q-1), if recorded. */
export function rowStats<S extends TraceStep>(s: S, codebook: number): S['logits'] | NonNullable<S['codePredictorLogits']>[number] | undefined {
  return codebook === 0 ? s.logits : s.codePredictorLogits?.[codebook - 1];
}

/** Rows (codebooks) a step recorded: its codes, or 1 + its code-predictor rows in a partial trace without codes. */
export function rowsOf(s: TraceStep): number {
  return Math.max(s.codes?.length ?? 0, (s.codePredictorLogits?.length ?? 0) + 1);
}

/** Top-1 − top-2 of a recorded top-5, null when fewer than two are recorded. */
export function topGap(stats: TraceLogitStats | undefined): number | null {
  if (!stats?.top5 || stats.top5.length < 2) return null;
  return stats.top5[0].logit - stats.top5[1].logit;
}

const logitOf = (top5: NonNullable<TraceLogitStats['top5']>, id: number): number | undefined => top5.find((t) => t.id === id)?.logit;

/** Own pick's logit minus the other pick's (exact), or a lower bound from the 5th logit, or null. */
function margin(stats: TraceLogitStats | undefined, own: number, other: number): { value: number; exact: boolean } | null {
  const top5 = stats?.top5;
  if (!top5) return null;
  const mine = logitOf(top5, own);
  if (mine === undefined || !Number.isFinite(mine)) return null;
  const theirs = logitOf(top5, other);
  if (theirs !== undefined) return Number.isFinite(theirs) ? { value: mine - theirs, exact: true } : null;
  const last = top5[top5.length - 1];
  // A vocabulary of ≤ 5 ids lists every id: a code not listed there was never a candidate.
  if (top5.length < 5 || !Number.isFinite(last.logit)) return null;
  return { value: mine - last.logit, exact: false };
}

/**
 * Largest |a − b| of the statistics both rows recorded; NaN when a non-finite value differs or nothing
 * finite was compared; null when the rows share no statistic (nothing measured, not a drift of 0).
 */
export function rowDrift(a: TraceLogitStats, b: TraceLogitStats): number | null {
  const fold = new AbsDiffFold();
  for (const k of ['mean', 'std', 'min', 'max'] as const) if (a[k] !== undefined && b[k] !== undefined) fold.add(a[k], b[k]);
  for (let i = 0; i < Math.min(a.top5?.length ?? 0, b.top5?.length ?? 0); i++) fold.add(a.top5![i].logit, b.top5![i].logit);
  if (fold.counts.finite + fold.counts.nonFinite === 0) return null;
  const worst = fold.value();
  return Number.isFinite(worst) ? worst : NaN;
}

/**
 * `worst` (the drift of the rows before, null when none was compared) with the first `rows` rows of one
 * step pair folded in, in pipeline order; a non-finite difference makes it NaN for good.
 */
function foldRows(worst: number | null, a: TraceStep, b: TraceStep, rows: number): number | null {
  for (let c = 0; c < rows && !Number.isNaN(worst); c++) {
    const ra = rowStats(a, c);
    const rb = rowStats(b, c);
    const d = ra && rb ? rowDrift(ra, rb) : null;
    if (d === null) continue;
    worst = Number.isNaN(d) ? NaN : Math.max(worst ?? 0, d);
  }
  return worst;
}

const f = (x: number): string => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(2) : String(Number(x.toPrecision(3))));

/**
 * The first step and codebook (pipeline order) where both runs ran and picked different codes,
 * classified as near-tie, real or unknown (file comment), or null when the codes never differ (or were
 * not recorded on both sides).
 */
export function firstCodeFlip(stepsA: readonly TraceStep[], stepsB: readonly TraceStep[], threshold = DEFAULT_NEAR_TIE_GAP): CodeFlip | null {
  const finder = new FirstFlipFinder(threshold);
  for (let i = 0; i < Math.min(stepsA.length, stepsB.length); i++) finder.add(stepsA[i], stepsB[i], i + 1);
  return finder.flip;
}

/** firstCodeFlip fed one step pair at a time (`step` 1-based, in order), for traces read as a stream. */
export class FirstFlipFinder {
  flip: CodeFlip | null = null;
  /** Drift of every recorded row of the steps before (driftBefore's running value). */
  private before: number | null = null;

  constructor(private readonly threshold: number) {}

  add(a: TraceStep, b: TraceStep, step: number): void {
    if (this.flip) return;
    if (a.codes && b.codes) {
      const q = Math.min(a.codes.length, b.codes.length);
      for (let c = 0; c < q; c++) {
        if (a.codes[c] !== b.codes[c]) {
          this.flip = classifyFlip(a, b, step, c, this.threshold, foldRows(this.before, a, b, c));
          return;
        }
      }
    }
    this.before = foldRows(this.before, a, b, Math.max(rowsOf(a), rowsOf(b)));
  }
}

/**
 * Classifies the flip at step `step` (1-based), codebook `codebook`, where a and b picked differently. `before` is the
 * drift of every recorded row before it in pipeline order (null: none compared; NaN: non-finite).
 * Both steps must have codes.
 */
export function classifyFlip(a: TraceStep, b: TraceStep, step: number, codebook: number, threshold: number, before: number | null): CodeFlip {
  const codeA = a.codes![codebook];
  const codeB = b.codes![codebook];
  const ra = rowStats(a, codebook);
  const rb = rowStats(b, codebook);
  const mA = margin(ra, codeA, codeB);
  const mB = margin(rb, codeB, codeA);
  const exact = mA !== null && mB !== null && mA.exact && mB.exact;
  // Exact: |marginA + marginB| (≥ 0 anyway under greedy picks). A bound: the sum of lower bounds.
  const sum = mA !== null && mB !== null ? mA.value + mB.value : null;
  const pairDrift = sum === null ? null : exact ? Math.abs(sum) : sum;
  let kind: FlipKind;
  if (pairDrift === null) kind = 'unknown';
  else if (exact) kind = pairDrift <= threshold ? 'near-tie' : 'real';
  else kind = pairDrift > threshold ? 'real' : 'unknown';
  const beforeOk = before === null || before <= threshold;
  let why: string;
  if (!ra || !rb) why = `the ${codebook === 0 ? 'talker' : 'code-predictor'} logits of this row were not recorded on ${!ra && !rb ? 'either side' : !ra ? 'A' : 'B'}`;
  else if (pairDrift === null) why = 'a picked code is missing from its own top-5, or its logits are not finite';
  else if (exact) why = `the two codes' logit difference moved by ${f(pairDrift)} from A to B (${kind === 'near-tie' ? '≤' : '>'} near-tie gap ${threshold})`;
  else why = `a code is outside the other side's top-5, so the two codes' logit difference moved by at least ${f(pairDrift)} (${kind === 'real' ? `> near-tie gap ${threshold}` : `not decidable against ${threshold}`})`;
  // The same numbers on both sides (this row, and every row before it) yet different codes: the sampler decided
  // (its random draws, or a branch on state outside the rows, e.g. the rest of the batch), not numeric drift.
  const sameNumbers = ra !== undefined && rb !== undefined && rowDrift(ra, rb) === 0 && (before === null || before === 0);
  if (sameNumbers) {
    kind = 'unknown';
    why = `the row is identical on both sides (every recorded statistic equal${before === 0 ? ', as is every row before it' : ''}): the same numbers gave different codes, so the sampler decided (its random draws, or a branch on state outside the row such as the rest of the batch), not numeric drift`;
  }
  if (kind === 'near-tie' && before !== null) {
    why += beforeOk
      ? `; every logit statistic before it ${before === 0 ? 'equal' : `within ${f(before)}`}`
      : `, but the logits had already drifted by ${Number.isNaN(before) ? 'a non-finite value' : f(before)} before it`;
  }
  return {
    step,
    codebook,
    codeA,
    codeB,
    gapA: topGap(ra),
    gapB: topGap(rb),
    marginA: mA?.exact ? mA.value : null,
    marginB: mB?.exact ? mB.value : null,
    pairDrift,
    exact,
    threshold,
    kind,
    driftBefore: before,
    numericallyEquivalent: kind === 'near-tie' && beforeOk,
    detail: why,
  };
}
