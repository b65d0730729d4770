import { z } from 'zod';

/** `bundle.json` of a `tts-parity-bundle/1` folder; docs/bundle-format.md explains every field. */
export const BUNDLE_FORMAT = 'tts-parity-bundle/1';

export const TensorDType = z.enum(['float32', 'float16', 'float64', 'int64', 'int32', 'bool']);
export type TensorDType = z.infer<typeof TensorDType>;

/** A declared input or output: name, element type and shape (numbers fixed, strings symbolic). */
export const TensorSpec = z.strictObject({
  name: z.string().min(1),
  dtype: TensorDType,
  shape: z.array(z.union([z.number().int().nonnegative(), z.string().min(1)])),
});
export type TensorSpec = z.infer<typeof TensorSpec>;

export const NetworkExport = z.strictObject({
  /** Path relative to the bundle folder. */
  file: z.string().min(1),
  inputs: z.array(TensorSpec).min(1),
  outputs: z.array(TensorSpec).min(1),
});
export type NetworkExport = z.infer<typeof NetworkExport>;

const DecoderSizes = {
  layers: z.number().int().positive(),
  heads: z.number().int().positive(),
  kvHeads: z.number().int().positive(),
  headDim: z.number().int().positive(),
  hidden: z.number().int().positive(),
  maxPositions: z.number().int().positive(),
};

/**
 * Export keys: `<preset>-<precision>` (eager-fp32, graph-fp32, eager-fp16, graph-fp16), plus fault
 * variants `<preset>-<precision>-fp16-overflow`. Only `eager-fp32` is required.
 */
const ExportKey = z.string().regex(/^(eager|graph)-(fp32|fp16)(-fp16-overflow)?$/, 'expected <eager|graph>-<fp32|fp16>[-fp16-overflow]');
const Exports = z.record(ExportKey, NetworkExport).refine((e) => 'eager-fp32' in e, { message: 'an "eager-fp32" export is required' });

/** Byte-level text: the UTF-8 bytes (ids 0..255) after `bos`. */
const ByteText = z.strictObject({
  tokenizer: z.literal('byte'),
  /** Token id prepended to the UTF-8 bytes. */
  bos: z.number().int().nonnegative(),
  framesPerChar: z.number().positive(),
  /** Longest accepted text, in UTF-8 bytes. */
  maxBytes: z.number().int().positive(),
});

/** Text tokenized by a Hugging Face `tokenizer.json` in the bundle folder. */
const TokenizerJsonText = z.strictObject({
  tokenizer: z.literal('tokenizer.json'),
  /** Path of the tokenizer.json, relative to the bundle folder. */
  file: z.string().min(1),
  /** Run the tokenizer's post-processor (e.g. a TemplateProcessing adding its own BOS/EOS); default false. */
  addSpecialTokens: z.boolean().optional(),
  /** Token id prepended to the tokenizer's ids; leave it out when the post-processor adds one. */
  bos: z.number().int().nonnegative().optional(),
  framesPerChar: z.number().positive(),
  /** Longest accepted text, in tokens as the tokenizer gives them (without `bos`). */
  maxTokens: z.number().int().positive(),
});

/** `text.tokenizer` picks the kind; old manifests (`"byte"`) read as before. */
export const TextSection = z.discriminatedUnion('tokenizer', [ByteText, TokenizerJsonText]);
export type TextSection = z.infer<typeof TextSection>;

/** Longest prefill the talker sees for text: `bos` (if any) plus the longest accepted text. */
export function maxTextPositions(text: TextSection): number {
  return text.tokenizer === 'byte' ? 1 + text.maxBytes : (text.bos === undefined ? 0 : 1) + text.maxTokens;
}

export const BundleManifest = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  name: z.string().min(1),
  description: z.string().optional(),
  sampleRate: z.number().int().positive(),
  frameRate: z.number().positive(),
  /** Samples per frame; must equal sampleRate / frameRate. */
  hopLength: z.number().int().positive(),
  codebooks: z.number().int().min(2),
  codebookSize: z.number().int().positive(),
  /** EOS is talker logit index `eos`; BOS fills the audio-feedback buffer before the first frame. */
  specialCodes: z.strictObject({ eos: z.number().int().nonnegative(), bos: z.number().int().nonnegative() }),
  text: TextSection,
  /** EOS is forced here even if the text asks for more. */
  maxFrames: z.number().int().positive(),
  embed: z.strictObject({
    /** Row of codebook c's code k in the embedding table: codecRowOffset + c·codecRowsPerCodebook + k. */
    codecRowOffset: z.number().int().nonnegative(),
    codecRowsPerCodebook: z.number().int().positive(),
    export: NetworkExport,
  }),
  talker: z.strictObject({ ...DecoderSizes, vocab: z.number().int().positive(), exports: Exports }),
  codePredictor: z.strictObject({ ...DecoderSizes, exports: Exports }),
  vocoder: z.strictObject({
    leftContextFrames: z.number().int().nonnegative(),
    chunkFrames: z.number().int().positive(),
    // partialRecord: a plain z.record over an enum requires every key (zod 4), and only fp32 is required.
    exports: z.partialRecord(z.enum(['fp32', 'fp16']), NetworkExport).refine((e) => 'fp32' in e, { message: 'an "fp32" export is required' }),
  }),
});
export type BundleManifest = z.infer<typeof BundleManifest>;
export type DecoderManifest = BundleManifest['talker'] | BundleManifest['codePredictor'];
