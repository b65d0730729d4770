import { z } from 'zod';

/**
 * What counts as "the same" when two runs are compared step by step. Stated in every report.
 * - logitAbs/logitRel: a logit statistic (mean, std, min, max, each top-5 logit) of the two sides
 *   matches when |a − b| ≤ logitAbs + logitRel·max(|a|, |b|). NaN matches NaN, ±Inf matches itself.
 * - codes are compared exactly (a sampled code is an integer: equal or not).
 * - audioAbs: two samples match when |a − b| ≤ audioAbs (1e-4: the stream-vs-full vocoder bound of
 *   the Engine issue, about −80 dBFS).
 * - nearTieGap: where the codes first differ, the flip is a near-tie when the two codes' logit
 *   difference moved by at most this much from A to B (near-tie.ts; absent = DEFAULT_NEAR_TIE_GAP).
 *   It labels a divergence; it never makes one.
 */
export const Tolerances = z.object({
  logitAbs: z.number().nonnegative(),
  logitRel: z.number().nonnegative(),
  audioAbs: z.number().nonnegative(),
  nearTieGap: z.number().nonnegative().optional(),
  codes: z.literal('exact'),
});
export type Tolerances = z.infer<typeof Tolerances>;

export const DEFAULT_TOLERANCES: Tolerances = { logitAbs: 1e-3, logitRel: 0, audioAbs: 1e-4, codes: 'exact' };

/** True when two numbers match under the logit tolerance (NaN = NaN, Inf = same-signed Inf). */
export function closeEnough(a: number, b: number, tol: Pick<Tolerances, 'logitAbs' | 'logitRel'>): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  return Math.abs(a - b) <= tol.logitAbs + tol.logitRel * Math.max(Math.abs(a), Math.abs(b));
}
