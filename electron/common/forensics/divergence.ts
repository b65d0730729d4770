import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import { TraceLogitStats } from '../trace/step-record.js';
import { PairCounts } from './abs-diff.js';
import { ComparedFields } from './compared-fields.js';
import { CodeFlip } from './near-tie.js';
import { Tolerances } from './tolerances.js';
import { VocoderChunkReport } from './vocoder-chunks.js';

/** Where in the pipeline two runs first differ, in pipeline order within a step. */
export const DivergenceStage = z.enum(['talker-logits', 'sampled-code', 'code-predictor', 'vocoder']);
export type DivergenceStage = z.infer<typeof DivergenceStage>;

/** One step of both sides, kept so the studio can chart logit statistics with the divergence marked. */
export const StepComparison = z.object({
  step: z.number().int().positive(),
  a: TraceLogitStats.nullable(),
  b: TraceLogitStats.nullable(),
  codesA: z.array(z.number().int()).nullable(),
  codesB: z.array(z.number().int()).nullable(),
  /** The first stage that differs at this step, null when the step matches. */
  stage: DivergenceStage.nullable(),
  /** Largest |a − b| over the compared talker logit statistics (NaN where one side has NaN; null when none are shared). */
  maxStatDiff: JsonNumber.nullable(),
  /**
   * The same |a − b| for each code-predictor codebook both sides recorded logits of: entry k is codebook k + 1.
   * Absent when a side has no code-predictor logits (and in reports made before it existed).
   */
  codePredictorDiff: z.array(JsonNumber.nullable()).optional(),
});
export type StepComparison = z.infer<typeof StepComparison>;

export const FirstNonFinite = z.object({ step: z.number().int().positive(), stage: z.enum(['talker', 'code-predictor', 'vocoder']), nan: z.number().int(), inf: z.number().int() });
export type FirstNonFinite = z.infer<typeof FirstNonFinite>;

export const Divergence = z.object({
  /** First divergent step (1 = prefill, 2 = first decode), null when nothing differs beyond tolerance. */
  firstStep: z.number().int().positive().nullable(),
  stage: DivergenceStage.nullable(),
  /** 0 = talker's codebook, 1..Q-1 = code predictor's. */
  codebook: z.number().int().nonnegative().optional(),
  /** What differed, in words with both values, e.g. `talker logit mean: 0.312 vs 13.56 (|Δ| 13.25 > 0.001)`. */
  detail: z.string().optional(),
  /** 1-based frame of the first differing audio sample (frame N comes from step N). */
  vocoderFrame: z.number().int().positive().optional(),
  /** Start of the divergent frame, or the first differing sample's time for the vocoder stage, in seconds. */
  timeSec: JsonNumber.optional(),
  firstDifferingSample: z.number().int().nonnegative().optional(),
  /**
   * The traces' delay pattern (header `codebookDelays`): codebook k of frame f is emitted at step f + delays[k].
   * Present only for delay-pattern traces; then `frame` says which frame the divergence is in.
   */
  codebookDelays: z.array(z.number().int().nonnegative()).optional(),
  /**
   * Under a delay pattern, the first frame the divergence reaches: the earliest frame whose codes differ
   * (a later step can carry an earlier frame's codebook), else the first divergent step's frame for its
   * codebook; `timeSec` is that frame's start. Absent without a delay pattern (frame = step).
   */
  frame: z.object({ frame: z.number().int().positive(), step: z.number().int().positive(), codebook: z.number().int().nonnegative() }).optional(),
  /** True when every step (or frame) from `reconvergedAtStep` to the end matches again. */
  reconverges: z.boolean(),
  reconvergedAtStep: z.number().int().positive().optional(),
  divergedSteps: z.array(z.number().int().positive()),
  stepsA: z.number().int().nonnegative(),
  stepsB: z.number().int().nonnegative(),
  tolerances: Tolerances,
  firstNonFinite: z.object({ a: FirstNonFinite.nullable(), b: FirstNonFinite.nullable() }),
  /**
   * The largest finite |A − B| of any logit statistic (talker and code predictor) over the steps both
   * sides ran, with its step and field, e.g. `talker max`; null when every statistic is equal. Says why a
   * run is within-tolerance rather than identical.
   */
  largestLogitDiff: z.object({ value: z.number(), step: z.number().int().positive(), field: z.string() }).nullable().optional(),
  /**
   * How many logit-statistic pairs `largestLogitDiff` was folded over with both values finite, and how many
   * held a NaN or an infinity (abs-diff.ts): finite 0 means no difference was measured, so a null
   * `largestLogitDiff` is not "all equal". Absent in reports made before it existed.
   */
  logitPairs: PairCounts.optional(),
  /** False when the audio was not given (compare-trace without WAVs): the vocoder stage was not checked. */
  audioCompared: z.boolean().optional(),
  /**
   * The audio difference chunk by chunk of the vocoders that made it, with the seams between the chunks (header
   * `vocoderChunks`, vocoder-chunks.ts); absent without audio or without a seam on either side.
   */
  vocoderChunks: VocoderChunkReport.optional(),
  /** Where the picked codes first differ, and whether that flip is a near-tie (near-tie.ts); absent when the codes never differ. */
  flip: CodeFlip.optional(),
  /** Which fields were compared and which one side lacked (partial traces); absent in reports made before it existed. */
  compared: ComparedFields.optional(),
  steps: z.array(StepComparison),
});
export type Divergence = z.infer<typeof Divergence>;
