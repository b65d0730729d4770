import { z } from 'zod';

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
    /** Execution providers this machine can run, e.g. ["cpu"]. */
    executionProviders: z.array(z.string()),
    presets: z.array(z.string()),
  })
  .loose();
export type BundleInfo = z.infer<typeof BundleInfo>;
