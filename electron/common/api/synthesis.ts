import { z } from 'zod';
import { StepRecord } from '../trace/step-record.js';
import { Audio, Int32Values, ProfileText, PromptText, Sampling, Seed } from './primitives.js';

export const SynthesizeRequest = z.object({
  text: PromptText,
  profile: ProfileText,
  seed: Seed.default(0),
  sampling: Sampling.default(Sampling.parse({})),
});
export type SynthesizeRequest = z.infer<typeof SynthesizeRequest>;

/** One rendering: audio, the codes (frames × codebooks, row-major) and the step trace. */
export const SynthesisResult = z
  .object({
    /** The profile as actually run, in canonical form. */
    profile: z.string(),
    audio: Audio,
    frames: z.number().int().nonnegative(),
    codebooks: z.number().int().positive(),
    codes: Int32Values,
    /** The execution provider that ran, and why if it is not the one asked for. */
    executionProvider: z.string(),
    fallbackReason: z.string().optional(),
    steps: z.array(StepRecord),
    totalMs: z.number().nonnegative(),
  })
  .loose();
export type SynthesisResult = z.infer<typeof SynthesisResult>;
