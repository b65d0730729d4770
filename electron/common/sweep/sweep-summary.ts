import { z } from 'zod';
import { Sampling } from '../api/primitives.js';
import { DivergenceStage } from '../forensics/divergence.js';
import { nonFiniteReplacer } from '../report/json-number.js';
import { Quantiles } from './quantiles.js';
import { SweepCase } from './sweep-case.js';

export const SWEEP_SUMMARY_SCHEMA = 'tts-parity-sweep-summary/1';

const StepCount = z.object({ step: z.number().int().positive(), count: z.number().int().positive() });

/** A case as the summary lists it: its line without the timings (which differ from run to run). */
export const SummaryCase = SweepCase.omit({ timings: true });
export type SummaryCase = z.infer<typeof SummaryCase>;

/**
 * `sweep.json`: what `parity sweep merge` writes. Its bytes depend only on the cases, never on how they
 * were sharded or how long they took (docs/sweeps.md).
 */
export const SweepSummary = z.object({
  schema: z.literal(SWEEP_SUMMARY_SCHEMA),
  mode: z.enum(['profiles', 'traces', 'endpoints']),
  a: z.string(),
  b: z.string(),
  bundle: z.string().optional(),
  sampling: Sampling.optional(),
  corpusSha256: z.string(),
  totalCases: z.number().int().nonnegative(),
  counts: z.object({
    identical: z.number().int().nonnegative(),
    'within-tolerance': z.number().int().nonnegative(),
    diverged: z.number().int().nonnegative(),
    /** Cases whose audio is degenerate (report/audio-check.ts); absent in summaries written before it was added. */
    'degenerate-audio': z.number().int().nonnegative().optional(),
    error: z.number().int().nonnegative(),
    /** Planned but absent from every shard file (a shard not run, or stopped early). */
    missing: z.number().int().nonnegative(),
  }),
  /** Diverged cases by the kind of their first code flip (near-tie.ts); cases whose codes never differ are not counted. */
  flips: z.object({ 'near-tie': z.number().int().nonnegative(), real: z.number().int().nonnegative(), unknown: z.number().int().nonnegative() }),
  firstStep: z.object({
    histogram: z.array(StepCount),
    byStage: z.array(z.object({ stage: DivergenceStage, histogram: z.array(StepCount) })),
    /** The most frequent first divergent step (the smallest on a tie); null when nothing diverged. */
    mode: z.number().int().positive().nullable(),
  }),
  distributions: z.object({ correlation: Quantiles, loudnessDeltaLU: Quantiles, mcdDb: Quantiles }),
  /** The worst cases, worst first (sweep-order.ts); `fixture` is the folder of the re-run comparison, when written. */
  worst: z.array(z.object({ key: z.string(), fixture: z.string().optional() })),
  problems: z.object({
    /** Shard indices (1-based) with no file among the merged folders. */
    missingShards: z.array(z.number().int().positive()),
    /** Keys planned by a shard header and written by no shard. */
    missing: z.array(z.string()),
    /** Keys written more than once with the same result (kept once). */
    duplicates: z.array(z.string()),
    /** Keys written more than once with different results (the first file's line is kept). */
    conflicts: z.array(z.string()),
    /** Trace sweeps: names in only one of the two folders. */
    unpaired: z.array(z.string()),
  }),
  cases: z.array(SummaryCase),
});
export type SweepSummary = z.infer<typeof SweepSummary>;

/** sweep.json's text: two-space JSON, non-finite numbers as strings (as in reports), a final newline. */
export function stringifySummary(summary: SweepSummary): string {
  return JSON.stringify(summary, nonFiniteReplacer, 2) + '\n';
}
