import { z } from 'zod';
import { BundleError } from '../../common/errors.js';

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
  /** Token id prepended to the UTF-8 bytes; required unless `talker.prefill` places the text itself. */
  bos: z.number().int().nonnegative().optional(),
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

/** Longest accepted text in tokens (UTF-8 bytes for byte-level), without `bos`. */
export const maxTextTokens = (text: TextSection): number => (text.tokenizer === 'byte' ? text.maxBytes : text.maxTokens);

/** Longest `[bos, text…]` prefill (no template): `bos` (if any) plus the longest accepted text. */
export function maxTextPositions(text: TextSection): number {
  return (text.bos === undefined ? 0 : 1) + maxTextTokens(text);
}

const Id = z.number().int().nonnegative();

/**
 * Talker logit ids from the codebook-0 size up, other than `specialCodes.eos`, are special codec
 * tokens (Qwen3-TTS: 3072 logits over 2048 codes). The engine sets them to −inf before sampling;
 * `names` says what they are (informative, by id).
 */
const SpecialIds = z.strictObject({
  suppress: z.literal('all-except-eos'),
  names: z.record(z.string().regex(/^\d+$/, 'expected a talker logit id'), z.string().min(1)).optional(),
});

/**
 * One part of the talker's prefill template, in order. Each position's input is the sum of the parts
 * named: `text` = a text embedding row, `codec` = a codebook-0 codec row (special codec ids included).
 * `tokens` places the text's tokens (all of them, or only the first; the rest then condition the
 * decode steps), one position each, plus the `codec` row if given. Slots are left out when the request
 * has no speaker / instruction.
 */
export const PrefillPart = z.union([
  z.strictObject({ text: Id, codec: Id.optional() }),
  z.strictObject({ codec: Id }),
  z.strictObject({ tokens: z.enum(['all', 'first']), codec: Id.optional() }),
  z.strictObject({ slot: z.literal('speaker'), text: Id.optional() }),
  z.strictObject({ slot: z.literal('instruction') }),
]);
export type PrefillPart = z.infer<typeof PrefillPart>;

const Prefill = z.strictObject({
  template: z.array(PrefillPart).min(1),
  /** Speaker name -> codebook-0 codec row, for the `speaker` slot. */
  speakers: z.record(z.string().min(1), Id).optional(),
});

/**
 * Per-step text conditioning (Qwen3-TTS): decode step s ≥ 2 adds the text embedding of trailing
 * token s−2 (the text's tokens the prefill did not place, then `end` if given) to the codec-embedding
 * sum, and the `pad` text embedding once they run out.
 */
const TextConditioning = z.strictObject({ pad: Id, end: Id.optional() });

/**
 * The whole embedding table (text rows, then the codec rows) as a file read by rows when needed,
 * never whole: raw little-endian [rows, talker.hidden] (`raw`), or one tensor of a safetensors file.
 */
export const EmbedTableFile = z.strictObject({
  file: z.string().min(1),
  format: z.enum(['raw', 'safetensors']),
  dtype: z.enum(['float32', 'float16']),
  rows: z.number().int().positive(),
  /** safetensors only: the tensor's name in the file's header. */
  tensor: z.string().min(1).optional(),
});
export type EmbedTableFile = z.infer<typeof EmbedTableFile>;

/**
 * Batched exports (docs/bundle-format.md "Batch support"): `eager-<precision>` with a symbolic batch
 * dimension, `graph-<precision>@B` with every shape fixed at batch bucket B. No `batch` field: the
 * bundle runs batch 1 only, and a `batch=N` profile is refused.
 */
export const BatchExportKey = z.string().regex(/^(eager-(fp32|fp16)|graph-(fp32|fp16)@[1-9][0-9]{0,3})$/, 'expected eager-<fp32|fp16> (dynamic batch) or graph-<fp32|fp16>@B (batch bucket B)');
export const BatchSection = z.strictObject({
  /** The batch sizes of the graph exports, ascending: a batch=N graph run pads its batch to the smallest one ≥ N. */
  graphBuckets: z.array(z.number().int().min(1).max(9999)).min(1).optional(),
  talker: z.record(BatchExportKey, NetworkExport),
  codePredictor: z.record(BatchExportKey, NetworkExport),
});
export type BatchSection = z.infer<typeof BatchSection>;

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
  /** Codes of codebook c are 0..codebookSizes[c]−1 where sizes differ (each ≤ codebookSize, the logit width). */
  codebookSizes: z.array(z.number().int().positive()).optional(),
  /**
   * EOS is talker logit index `eos`, masked at every step; without `eos` the talker has no EOS logit (CSM: its
   * logits are codebook 0's codes, and it ends on a frame of EOS codes), so nothing is masked. BOS fills the
   * audio-feedback buffer before the first frame.
   */
  specialCodes: z.strictObject({
    eos: z.number().int().nonnegative().optional(),
    bos: z.number().int().nonnegative(),
    /** Delay-pattern bundles (`codebookDelays`): the code a codebook emits after its EOS (Dia's audio PAD). */
    pad: z.number().int().nonnegative().optional(),
  }),
  text: TextSection,
  /** EOS is forced here even if the text asks for more. */
  maxFrames: z.number().int().positive(),
  embed: z.strictObject({
    /** Row of codebook c's code k in the embedding table: codecRowOffset + c·codecRowsPerCodebook + k. */
    codecRowOffset: z.number().int().nonnegative(),
    codecRowsPerCodebook: z.number().int().positive(),
    /** The table as an ONNX graph, read whole at open; or `table`, a file read by rows. Exactly one. */
    export: NetworkExport.optional(),
    table: EmbedTableFile.optional(),
  }),
  talker: z.strictObject({
    ...DecoderSizes,
    vocab: z.number().int().positive(),
    specialIds: SpecialIds.optional(),
    prefill: Prefill.optional(),
    textConditioning: TextConditioning.optional(),
    /**
     * "all": every step's logits are all Q codebooks' rows, [1, S, Q, vocab] (Dia); there is no code predictor.
     * Left out: the talker gives codebook 0 and the code predictor the rest.
     */
    codebooks: z.literal('all').optional(),
    exports: Exports,
  }),
  codePredictor: z.strictObject({
    ...DecoderSizes,
    /** inputs_embeds arrive at talker.hidden (`from`) and the export projects them to its own hidden (`to`). */
    projection: z.strictObject({ from: z.number().int().positive(), to: z.number().int().positive() }).optional(),
    exports: Exports,
  }).optional(),
  /**
   * A text encoder run once per synthesis on the text's ids (Dia); its output is fed to every talker step
   * (`encoder_hidden_states`, with `encoder_attention_mask`). The graph export takes `maxPositions` ids, padded.
   */
  encoder: z.strictObject({ hidden: z.number().int().positive(), maxPositions: z.number().int().positive(), exports: Exports }).optional(),
  /**
   * A delay pattern (Dia, MusicGen): codebook k of frame f is emitted at step f + codebookDelays[k]; needs
   * `talker.codebooks: "all"`. The engine forces BOS before a codebook's first frame and EOS/PAD after the
   * last (docs/bundle-format.md, "Delay pattern").
   */
  codebookDelays: z.array(z.number().int().nonnegative().max(4096)).min(1).optional(),
  vocoder: z.strictObject({
    leftContextFrames: z.number().int().nonnegative(),
    chunkFrames: z.number().int().positive(),
    // partialRecord: a plain z.record over an enum requires every key (zod 4), and only fp32 is required.
    exports: z.partialRecord(z.enum(['fp32', 'fp16']), NetworkExport).refine((e) => 'fp32' in e, { message: 'an "fp32" export is required' }),
  }),
  batch: BatchSection.optional(),
});
export type BundleManifest = z.infer<typeof BundleManifest>;
export type CodePredictorManifest = NonNullable<BundleManifest['codePredictor']>;
export type DecoderManifest = BundleManifest['talker'] | CodePredictorManifest;

/** Size of codebook c: codes are 0..size−1. */
export const codebookSizeOf = (m: Pick<BundleManifest, 'codebookSize' | 'codebookSizes'>, c: number): number => m.codebookSizes?.[c] ?? m.codebookSize;

/** Width of the code predictor's inputs_embeds: talker.hidden (the projection, if any, is inside its export). */
export const codePredictorInputHidden = (m: BundleManifest): number => m.codePredictor?.projection?.from ?? m.codePredictor?.hidden ?? m.talker.hidden;

/** Whether the talker emits every codebook per step (no code predictor): `talker.codebooks: "all"`. */
export const emitsAllCodebooks = (m: Pick<BundleManifest, 'talker'>): boolean => m.talker.codebooks === 'all';

/**
 * The code predictor of a bundle that has one; a bundle whose talker emits every codebook has none, and a
 * caller that needs it (`what`) is refused in one line.
 */
export function codePredictorOf(m: BundleManifest, what: string): CodePredictorManifest {
  if (m.codePredictor) return m.codePredictor;
  throw new BundleError(`${what}: this bundle has no code predictor (talker.codebooks "all": the talker emits every codebook)`, 'bundle.json:codePredictor');
}
