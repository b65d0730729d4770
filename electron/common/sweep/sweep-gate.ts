import { z } from 'zod';
import { caseKey } from './sweep-case.js';
import type { SweepSummary } from './sweep-summary.js';

/**
 * The thresholds of `parity sweep gate` (flags, or the same names in a JSON file; docs/sweeps.md).
 * Absent thresholds are not checked, except that an incomplete sweep (missing cases or shards) and
 * errors fail unless allowed, since a gate over part of a corpus would pass by not looking.
 */
export const SweepThresholds = z
  .object({
    /** Most diverged cases allowed, as a fraction of the cases run (0..1). */
    maxDivergedRate: z.number().min(0).max(1).optional(),
    /** Most outliers allowed: cases whose correlation is below `outlierCorrelation` (or not finite, or errors). */
    maxOutliers: z.number().int().nonnegative().optional(),
    outlierCorrelation: z.number().min(-1).max(1).default(0.9),
    /** Most cases whose comparison failed (default 0). */
    maxErrors: z.number().int().nonnegative().default(0),
    /** Most cases missing from the merged shards (default 0). */
    maxMissing: z.number().int().nonnegative().default(0),
  })
  .strict();
export type SweepThresholds = z.infer<typeof SweepThresholds>;

export interface GateCheck {
  name: string;
  ok: boolean;
  /** e.g. `diverged 3 of 30 (0.1000) <= 0.2000`. */
  detail: string;
}

export interface SweepGateResult {
  ok: boolean;
  checks: GateCheck[];
  /** Keys of the outliers, worst first in sweep order. */
  outliers: string[];
}

function isOutlier(c: SweepSummary['cases'][number], below: number): boolean {
  return c.verdict === 'error' || c.correlation === null || !Number.isFinite(c.correlation) || c.correlation < below;
}

/** Checks a merged sweep against the thresholds. Pure; the CLI turns `ok: false` into exit 1. */
export function gateSweep(summary: SweepSummary, t: SweepThresholds): SweepGateResult {
  const run = summary.cases.length;
  const checks: GateCheck[] = [];
  const check = (name: string, value: number, limit: number, detail: string) => checks.push({ name, ok: value <= limit, detail: `${detail} ${value <= limit ? '<=' : '>'} ${limit}` });
  check('missing', summary.counts.missing, t.maxMissing, `missing ${summary.counts.missing} of ${summary.totalCases} cases`);
  check('errors', summary.counts.error, t.maxErrors, `errors ${summary.counts.error} of ${run}`);
  if (t.maxDivergedRate !== undefined) {
    const rate = run === 0 ? 0 : summary.counts.diverged / run;
    checks.push({
      name: 'diverged-rate',
      ok: rate <= t.maxDivergedRate,
      detail: `diverged ${summary.counts.diverged} of ${run} (${rate.toFixed(4)}) ${rate <= t.maxDivergedRate ? '<=' : '>'} ${t.maxDivergedRate}`,
    });
  }
  const outliers = summary.cases.filter((c) => isOutlier(c, t.outlierCorrelation)).map(caseKey);
  if (t.maxOutliers !== undefined) check('outliers', outliers.length, t.maxOutliers, `outliers (correlation < ${t.outlierCorrelation}, not finite, or error) ${outliers.length} of ${run}`);
  return { ok: checks.every((c) => c.ok), checks, outliers };
}
