import type { PrefillPart } from '../bundle/manifest.js';
import type { DecoderSpec } from './decoder-graph.js';

/**
 * Sizes of the demo bundle. Small on purpose (hidden 64): a 40-character prompt synthesizes in a
 * fraction of a second on 2 CPU cores, yet every part of the talker -> code predictor -> vocoder
 * shape is there (GQA with 4 query heads over 2 KV heads, RoPE, RMSNorm, SwiGLU, Q = 8 codebooks).
 */
export const DEMO_SEED = 20240611;

/**
 * Everything the demo builder reads. Other sizes build other bundles (tests build small ones to
 * stand in for a user's own export): `eosCode`/`bosCode` follow the codes (codebookSize, +1),
 * `textVocab` is 256 bytes + `textBos`, `hopLength × frameRate = sampleRate`, `codePredictor.maxPositions
 * ≥ codebooks`, `1 + maxTextBytes + maxFrames ≤ talker.maxPositions`, even head dims (RoPE halves).
 */
export interface DemoConfig {
  sampleRate: number;
  frameRate: number;
  hopLength: number;
  codebooks: number;
  codebookSize: number;
  eosCode: number;
  bosCode: number;
  textVocab: number;
  textBos: number;
  framesPerChar: number;
  maxTextBytes: number;
  maxFrames: number;
  talker: DecoderSpec;
  codePredictor: DecoderSpec;
  vocoder: {
    channels: number;
    convLayers: number;
    kernel: number;
    harmonics: number;
    f0Min: number;
    f0Max: number;
    leftContextFrames: number;
    chunkFrames: number;
  };
  overflow: { layer: number; scale: number };
  /**
   * Beyond the demo's shape, each optional (docs/bundle-format.md, "A Qwen3-shaped configuration"):
   * a talker vocabulary with special codec ids past the codes (declared and masked: bundle.json
   * talker.specialIds; eosCode/bosCode then lie among them), named by `specialCodeNames`.
   */
  talkerVocab?: number;
  specialCodeNames?: Record<string, string>;
  /** Per-codebook sizes (bundle.json codebookSizes). */
  codebookSizes?: number[];
  /** The code predictor has its own hidden size; its exports project talker.hidden inputs to it. */
  codePredictorProjection?: boolean;
  /** bundle.json talker.prefill (then ids textBos..textVocab−1 are special text ids, and no text.bos). */
  prefill?: { template: PrefillPart[]; speakers?: Record<string, number> };
  /** bundle.json talker.textConditioning. */
  textConditioning?: { pad: number; end?: number };
  /** Write the embedding table as a file read by rows (bundle.json embed.table) instead of embed.onnx. */
  embedTable?: { format: 'raw' | 'safetensors'; dtype: 'float32' | 'float16' };
}

/** Codec rows per codebook: the codes, EOS, BOS, and any special ids of a larger talker vocabulary. */
export const codecRowsPerCodebook = (c: DemoConfig): number => Math.max(c.codebookSize + 2, c.talkerVocab ?? 0);

/** The talker's logit width: codebook 0 plus EOS, or `talkerVocab`. */
export const talkerVocabOf = (c: DemoConfig): number => c.talkerVocab ?? c.codebookSize + 1;

export const DEMO = {
  sampleRate: 24000,
  frameRate: 12.5,
  /** samples per frame = sampleRate / frameRate */
  hopLength: 1920,
  codebooks: 8,
  codebookSize: 128,
  /** codec rows per codebook: the codes, then EOS, then BOS (the audio-feedback seed). */
  eosCode: 128,
  bosCode: 129,
  textVocab: 257,
  textBos: 256,
  framesPerChar: 0.9,
  /**
   * UTF-8 bytes. maxFrames = round(128 × framesPerChar), so the longest text still gets all its frames
   * (≈ 9 s of audio); BOS + 128 + 115 = 244 positions fit in talker.maxPositions 256.
   */
  maxTextBytes: 128,
  maxFrames: 115,
  talker: {
    hidden: 64,
    layers: 4,
    heads: 4,
    kvHeads: 2,
    headDim: 16,
    ffn: 128,
    /** The graph talker attends over every buffer row each step: 256 rather than 512 halves that work (docs/performance.md). */
    maxPositions: 256,
    ropeTheta: 10000,
    eps: 1e-6,
  } satisfies DecoderSpec,
  codePredictor: {
    hidden: 64,
    layers: 2,
    heads: 4,
    kvHeads: 2,
    headDim: 16,
    ffn: 128,
    maxPositions: 8,
    ropeTheta: 10000,
    eps: 1e-6,
  } satisfies DecoderSpec,
  vocoder: {
    channels: 64,
    convLayers: 3,
    kernel: 3,
    harmonics: 16,
    f0Min: 100,
    f0Max: 250,
    /** frames of left context a streaming chunk re-decodes: the conv receptive field (6) + 1 for interpolation + 1 */
    leftContextFrames: 8,
    chunkFrames: 5,
  },
  /** fp16-overflow fault: this talker layer's MLP activation is scaled by 2^16 and back. */
  overflow: { layer: 1, scale: 65536 },
} as const satisfies DemoConfig;
