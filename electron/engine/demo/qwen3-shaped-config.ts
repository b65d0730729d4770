import type { DemoConfig } from './demo-config.js';

/**
 * The demo architecture in Qwen3-TTS's shape at toy sizes (docs/bundle-format.md, "A Qwen3-shaped
 * configuration"): every format feature beyond the demo's shape is used. Untrained, like the demo.
 *
 * - Talker vocabulary 48 over codebook 0's 32 codes: ids 32..47 are special codec tokens (Qwen3-TTS:
 *   3072 logits over 2048 codes), declared and masked; EOS = 38, BOS (codec_bos) = 37.
 * - Text ids 0..255 are bytes, 256..261 the chat/TTS special tokens the template uses:
 *   256 `<|im_start|>`, 257 `assistant`, 258 `\n`, 259 tts_bos, 260 tts_eos, 261 tts_pad.
 * - Prefill as Qwen3-TTS lays it out: [instruction] role tokens, tts_pad + the think codec tokens,
 *   tts_pad + speaker, tts_bos + codec_pad, first text token + codec_bos; the rest of the text (then
 *   tts_eos, then tts_pad) is added to the decode steps.
 * - Codebook sizes 32, 32, 24, 16 (the code predictor's logit width is 32).
 * - Code predictor hidden 16 behind a projection from the talker's 32.
 * - The embedding table as a float16 safetensors file read by rows.
 *
 * Longest prefill: 32 (instruction) + 3 + 3 + 1 + 1 + 1 = 41 positions, + 16 frames = 57 ≤ 64.
 */
export const QWEN3_SHAPED: DemoConfig = {
  sampleRate: 24000,
  frameRate: 12.5,
  hopLength: 1920,
  codebooks: 4,
  codebookSize: 32,
  eosCode: 38,
  bosCode: 37,
  textVocab: 262,
  textBos: 256,
  framesPerChar: 0.5,
  maxTextBytes: 32,
  maxFrames: 16,
  talker: { hidden: 32, layers: 2, heads: 4, kvHeads: 2, headDim: 8, ffn: 64, maxPositions: 64, ropeTheta: 10000, eps: 1e-6 },
  codePredictor: { hidden: 16, layers: 2, heads: 2, kvHeads: 1, headDim: 8, ffn: 32, maxPositions: 4, ropeTheta: 10000, eps: 1e-6 },
  vocoder: { channels: 16, convLayers: 2, kernel: 3, harmonics: 8, f0Min: 100, f0Max: 250, leftContextFrames: 6, chunkFrames: 4 },
  overflow: { layer: 1, scale: 65536 },
  talkerVocab: 48,
  specialCodeNames: { '36': 'codec_pad', '37': 'codec_bos', '38': 'codec_eos', '42': 'codec_nothink', '43': 'codec_think_bos', '44': 'codec_think_eos', '46': 'speaker vivian', '47': 'speaker ryan' },
  codebookSizes: [32, 32, 24, 16],
  codePredictorProjection: true,
  prefill: {
    template: [
      { slot: 'instruction' },
      { text: 256 },
      { text: 257 },
      { text: 258 },
      { text: 261, codec: 42 },
      { text: 261, codec: 43 },
      { text: 261, codec: 44 },
      { slot: 'speaker', text: 261 },
      { text: 259, codec: 36 },
      { tokens: 'first', codec: 37 },
    ],
    speakers: { vivian: 46, ryan: 47 },
  },
  textConditioning: { pad: 261, end: 260 },
  embedTable: { format: 'safetensors', dtype: 'float16' },
};
