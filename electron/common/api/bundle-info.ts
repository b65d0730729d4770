import { z } from 'zod';

/** The bundle's text tokenizer as Engine.info() describes it (engine/bundle/text-tokenizer.ts). */
export const TokenizerInfo = z.object({
  kind: z.enum(['byte', 'tokenizer.json']),
  /** tokenizer.json only: the file in the bundle folder, its model type, vocabulary size with added tokens. */
  file: z.string().optional(),
  model: z.string().optional(),
  vocabSize: z.number().int().nonnegative().optional(),
  summary: z.string(),
  /** Longest accepted text, counted in `unit`, and the bundle.json field that sets it. */
  limit: z.number().int().positive(),
  unit: z.enum(['UTF-8 bytes', 'tokens']),
  limitField: z.enum(['text.maxBytes', 'text.maxTokens']),
});
export type TokenizerInfo = z.infer<typeof TokenizerInfo>;

/** What the studio shows about the loaded model bundle (`tts-parity-bundle/1`). */
export const BundleInfo = z
  .object({
    dir: z.string(),
    name: z.string(),
    format: z.string(),
    /** True for the embedded demo bundle, which is an untrained voice. */
    demo: z.boolean(),
    sampleRate: z.number().int().positive(),
    frameRate: z.number().positive(),
    codebooks: z.number().int().positive(),
    codebookSize: z.number().int().positive(),
    maxFrames: z.number().int().positive().optional(),
    tokenizer: TokenizerInfo.optional(),
    /** Execution providers this machine can run, e.g. ["cpu"]. */
    executionProviders: z.array(z.string()),
    presets: z.array(z.string()),
  })
  .loose();
export type BundleInfo = z.infer<typeof BundleInfo>;
