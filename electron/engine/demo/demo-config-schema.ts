import { z } from 'zod';
import { InputError } from '../../common/errors.js';
import { PrefillPart } from '../bundle/manifest.js';
import { demoConfigProblems, demoManifestProblems } from './demo-config-checks.js';
import type { DemoConfig } from './demo-config.js';

/**
 * Upper bounds keep a config to what the builder is for (small test bundles written in memory by
 * JavaScript): the largest talker allowed, 16 layers × (4·512² + 3·512·2048) ≈ 67 M weights, is about
 * 270 MB per fp32 export, well under protobuf's 2 GiB message limit.
 */
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const positive = z.number().positive();

const Decoder = z.strictObject({
  hidden: int(2, 512),
  layers: int(1, 16),
  heads: int(1, 64),
  kvHeads: int(1, 64),
  headDim: int(2, 256),
  ffn: int(1, 2048),
  maxPositions: int(1, 4096),
  ropeTheta: positive,
  eps: positive,
});

/** A DemoConfig as read from a user's JSON file: every field checked, then the rules across fields. */
export const DemoConfigSchema = z
  .strictObject({
    sampleRate: int(8000, 192000),
    frameRate: positive,
    hopLength: int(1, 192000),
    codebooks: int(2, 64),
    codebookSize: int(2, 65536),
    eosCode: int(0, 65537),
    bosCode: int(0, 65537),
    textVocab: int(257, 1 << 20),
    textBos: int(256, 1 << 20),
    framesPerChar: positive,
    maxTextBytes: int(1, 4096),
    maxFrames: int(1, 4096),
    talker: Decoder,
    codePredictor: Decoder,
    vocoder: z.strictObject({
      channels: int(1, 512),
      convLayers: int(0, 16),
      kernel: int(1, 15),
      harmonics: int(1, 128),
      f0Min: positive,
      f0Max: positive,
      leftContextFrames: int(0, 4096),
      chunkFrames: int(1, 4096),
    }),
    overflow: z.strictObject({ layer: int(0, 15), scale: positive }),
    talkerVocab: int(3, 65536 + 1024).optional(),
    specialCodeNames: z.record(z.string().regex(/^\d+$/, 'expected a talker logit id'), z.string().min(1)).optional(),
    codebookSizes: z.array(int(1, 65536)).optional(),
    codePredictorProjection: z.boolean().optional(),
    prefill: z.strictObject({ template: z.array(PrefillPart).min(1), speakers: z.record(z.string().min(1), int(0, 1 << 20)).optional() }).optional(),
    textConditioning: z.strictObject({ pad: int(0, 1 << 20), end: int(0, 1 << 20).optional() }).optional(),
    embedTable: z.strictObject({ format: z.enum(['raw', 'safetensors']), dtype: z.enum(['float32', 'float16']) }).optional(),
  })
  .superRefine((c, ctx) => {
    for (const p of [...demoConfigProblems(c, true), ...demoManifestProblems(c)]) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });

/**
 * Reads a demo config from parsed JSON, or an InputError naming `source` and every bad field
 * (`talker.kvHeads: Too small: expected number to be >=1`), one after another.
 */
export function parseDemoConfig(json: unknown, source: string): DemoConfig {
  const parsed = DemoConfigSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new InputError(`${source}: not a demo config (${fields.length} problem${fields.length === 1 ? '' : 's'}): ${fields.join('; ')}`, 'config');
}
