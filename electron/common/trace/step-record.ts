import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';

/**
 * One decode step of a synthesis, as kept in memory, written to `tts-parity-trace/1` (JSON Lines, one
 * object per step after a header line; docs/trace-format.md) and compared by the localiser.
 * Step 1 is the prefill that yields frame 1; step N yields frame N.
 */
export const LogitStats = z.object({
  mean: JsonNumber,
  std: JsonNumber,
  min: JsonNumber,
  max: JsonNumber,
  argmax: z.number().int(),
  /** The five largest logits, best first. */
  top5: z.array(z.object({ id: z.number().int(), logit: JsonNumber })).max(5),
});
export type LogitStats = z.infer<typeof LogitStats>;

/**
 * Logit statistics as a trace file may hold them: each one optional, for engines that log only some
 * (seed 000's author logged only the mean). Our engine always writes all of them.
 */
export const TraceLogitStats = LogitStats.partial();
export type TraceLogitStats = z.infer<typeof TraceLogitStats>;

export const StageCounts = z.object({
  talker: z.number().int().nonnegative(),
  codePredictor: z.number().int().nonnegative(),
  vocoder: z.number().int().nonnegative(),
});
export type StageCounts = z.infer<typeof StageCounts>;

/**
 * Statistics of one hidden-state tensor of a step (e.g. the talker's last hidden state), for engines that
 * record it. mean/std/min/max follow the LogitStats rules over all entries (float64, population std, any
 * NaN makes mean and std NaN, min/max skip NaNs); nan and inf count the non-finite entries.
 */
export const HiddenStats = z.object({
  mean: JsonNumber,
  std: JsonNumber,
  min: JsonNumber,
  max: JsonNumber,
  nan: z.number().int().nonnegative(),
  inf: z.number().int().nonnegative(),
});
export type HiddenStats = z.infer<typeof HiddenStats>;

export const StepRecord = z.object({
  step: z.number().int().positive(),
  /** The talker's raw logit row for codebook 0 at this step: every id (special ids and EOS included), before any processing. */
  logits: LogitStats,
  /** All Q codes of the frame: codes[0] from the talker, codes[1..Q-1] from the code predictor. */
  codes: z.array(z.number().int().nonnegative()),
  /** Code-predictor logit statistics per codebook 1..Q-1: exactly Q-1 entries (optional for foreign engines). */
  codePredictorLogits: z.array(LogitStats).optional(),
  /** NaN and Inf counts per stage in this step's outputs. */
  nan: StageCounts.optional(),
  inf: StageCounts.optional(),
  /** Wall time per stage in ms. */
  timesMs: z.object({ talker: z.number(), codePredictor: z.number(), vocoder: z.number().optional() }).optional(),
  /** Statistics of the step's hidden state (optional; which tensor is the engine's choice, e.g. the talker's last hidden state). */
  hidden: HiddenStats.optional(),
});
export type StepRecord = z.infer<typeof StepRecord>;

/**
 * One step as a `tts-parity-trace/1` line: a StepRecord whose logit statistics, codes and code-predictor
 * list may each be missing (partial traces from foreign engines). readTrace refuses a step with none of
 * them; the localiser compares the fields both sides have and reports the rest (compared-fields.ts).
 */
export const TraceStep = StepRecord.extend({
  logits: TraceLogitStats.optional(),
  codes: z.array(z.number().int().nonnegative()).optional(),
  codePredictorLogits: z.array(TraceLogitStats).optional(),
});
export type TraceStep = z.infer<typeof TraceStep>;
