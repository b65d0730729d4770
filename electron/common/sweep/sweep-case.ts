import { z } from 'zod';
import { Sampling } from '../api/primitives.js';
import { DivergenceStage } from '../forensics/divergence.js';
import { FlipKind } from '../forensics/near-tie.js';
import { JsonNumber } from '../report/json-number.js';
import { Verdict } from '../report/report.js';

/** The schema tag of a shard file's header line (docs/sweeps.md). */
export const SWEEP_SCHEMA = 'tts-parity-sweep/1';

/** A case's verdict, or `error` when its comparison failed (the message is in `error`). */
export const SweepVerdict = z.union([Verdict, z.literal('error')]);
export type SweepVerdict = z.infer<typeof SweepVerdict>;

/**
 * One case of a sweep, one JSON line of a shard file. `index` is the case's place in the whole sweep
 * (corpus order × seeds), so a merged summary lists cases in the same order however they were sharded.
 * Audio metrics are null when no audio was compared (trace sweeps without WAVs, or an error).
 */
export const SweepCase = z.object({
  index: z.number().int().nonnegative(),
  id: z.string().min(1),
  /** null for trace sweeps (the seed is the trace's own). */
  seed: z.number().int().nonnegative().nullable(),
  /** Profile sweeps: the prompt, so a merged folder alone can re-run any case. */
  text: z.string().optional(),
  verdict: SweepVerdict,
  firstStep: z.number().int().positive().nullable(),
  stage: DivergenceStage.nullable(),
  codebook: z.number().int().nonnegative().nullable(),
  reconverges: z.boolean().nullable(),
  /** Where the picked codes first differ: a near-tie (numeric drift could swap them), real, or unknown (near-tie.ts); null when they never differ. */
  flip: FlipKind.nullable(),
  correlation: JsonNumber.nullable(),
  nullDepthDb: JsonNumber.nullable(),
  loudnessDeltaLU: JsonNumber.nullable(),
  lsdDb: JsonNumber.nullable(),
  mcdDb: JsonNumber.nullable(),
  /** ms: each side's synthesis (engine sweeps) and the case's wall time. Never part of a summary. */
  timings: z.object({ aMs: z.number().nullable(), bMs: z.number().nullable(), wallMs: z.number() }),
  error: z.string().optional(),
});
export type SweepCase = z.infer<typeof SweepCase>;

/**
 * The first line of every shard file: what the sweep is, which shard this file holds and the keys of
 * the cases planned for it, so a merge can tell a missing case from one never planned, and a re-run
 * can refuse a file written by a different sweep.
 */
export const SweepHeader = z.object({
  schema: z.literal(SWEEP_SCHEMA),
  mode: z.enum(['profiles', 'traces', 'endpoints']),
  /** Profiles (profile sweeps) or the two trace folders as given (trace sweeps). */
  a: z.string(),
  b: z.string(),
  /** The bundle as given, "demo" for the built-in one; absent for trace sweeps. */
  bundle: z.string().optional(),
  sampling: Sampling.optional(),
  /** sha256 of the corpus file's bytes, or of the paired trace names (trace sweeps). */
  corpusSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Cases in the whole sweep, over all shards. */
  totalCases: z.number().int().nonnegative(),
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }),
  /** Keys (caseKey) of this shard's cases, in sweep order. */
  planned: z.array(z.string()),
  /** Trace sweeps: names found in only one of the two folders. */
  unpaired: z.array(z.string()).optional(),
});
export type SweepHeader = z.infer<typeof SweepHeader>;

/** A case's identity across shards: `id@seed`, or the id alone when there is no seed. */
export function caseKey(c: { id: string; seed: number | null }): string {
  return c.seed === null ? c.id : `${c.id}@${c.seed}`;
}
