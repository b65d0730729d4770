import type { TensorSpec } from './manifest.js';

/**
 * The tensors each network of a `tts-parity-bundle/1` must have (HF Optimum / transformers.js names).
 * The demo builder writes its manifest from these, and the loader checks any manifest against them,
 * so the document (docs/bundle-format.md), the builder and the loader cannot drift apart.
 */
export interface Contract {
  inputs: TensorSpec[];
  outputs: TensorSpec[];
}

export type Float = 'float32' | 'float16';

export interface DecoderSizes {
  layers: number;
  kvHeads: number;
  headDim: number;
  hidden: number;
  maxPositions: number;
}

/**
 * Rows per run: 1 (every unbatched export), a fixed batch bucket (a batched graph export), or
 * `BATCH_DIM`, the symbolic batch of a batched eager export (bundle.json `batch`, docs/bundle-format.md).
 */
export type BatchDim = number | typeof BATCH_DIM;
export const BATCH_DIM = 'batch_size';

function decoderTensors(d: DecoderSizes, mode: 'eager' | 'graph', float: Float, B: BatchDim): Contract {
  const eager = mode === 'eager';
  const S = eager ? 'sequence_length' : 1;
  const P = eager ? 'past_sequence_length' : d.maxPositions;
  const T = eager ? 'total_sequence_length' : d.maxPositions;
  const inputs: TensorSpec[] = [
    { name: 'inputs_embeds', dtype: float, shape: [B, S, d.hidden] },
    { name: 'attention_mask', dtype: 'int64', shape: [B, T] },
    { name: 'position_ids', dtype: 'int64', shape: [B, S] },
  ];
  const outputs: TensorSpec[] = [];
  for (let i = 0; i < d.layers; i++) {
    for (const kv of ['key', 'value']) {
      inputs.push({ name: `past_key_values.${i}.${kv}`, dtype: float, shape: [B, d.kvHeads, P, d.headDim] });
      outputs.push({ name: `present.${i}.${kv}`, dtype: float, shape: [B, d.kvHeads, T, d.headDim] });
    }
  }
  return { inputs, outputs };
}

/**
 * What a talker of the Dia shape adds (bundle.json `talker.codebooks: "all"`, `encoder`): logits for all
 * `codebooks` per position, and the encoder's output with its mask as inputs of every step.
 */
export interface TalkerExtras {
  codebooks?: number;
  encoder?: { hidden: number; maxPositions: number };
}

export function talkerContract(d: DecoderSizes, vocab: number, mode: 'eager' | 'graph', float: Float, batch: BatchDim = 1, extras: TalkerExtras = {}): Contract {
  const c = decoderTensors(d, mode, float, batch);
  const S = mode === 'eager' ? 'sequence_length' : 1;
  c.outputs.unshift(
    { name: 'logits', dtype: float, shape: extras.codebooks === undefined ? [batch, S, vocab] : [batch, S, extras.codebooks, vocab] },
    { name: 'last_hidden_state', dtype: float, shape: [batch, S, d.hidden] },
  );
  if (extras.encoder) {
    const E = mode === 'eager' ? 'encoder_sequence_length' : extras.encoder.maxPositions;
    c.inputs.splice(
      3,
      0,
      { name: 'encoder_hidden_states', dtype: float, shape: [batch, E, extras.encoder.hidden] },
      { name: 'encoder_attention_mask', dtype: 'int64', shape: [batch, E] },
    );
  }
  return c;
}

/** The text encoder, run once per synthesis: eager on the text's ids, graph on `maxPositions` ids (padded, masked). */
export function encoderContract(e: { hidden: number; maxPositions: number }, mode: 'eager' | 'graph', float: Float): Contract {
  const S = mode === 'eager' ? 'sequence_length' : e.maxPositions;
  return {
    inputs: [
      { name: 'input_ids', dtype: 'int64', shape: [1, S] },
      { name: 'attention_mask', dtype: 'int64', shape: [1, S] },
    ],
    outputs: [{ name: 'encoder_hidden_states', dtype: float, shape: [1, S, e.hidden] }],
  };
}

/** `inputHidden`: width of inputs_embeds, talker.hidden when the export projects its inputs (codePredictor.projection). */
export function codePredictorContract(d: DecoderSizes, codebookSize: number, mode: 'eager' | 'graph', float: Float, inputHidden = d.hidden, batch: BatchDim = 1): Contract {
  const c = decoderTensors({ ...d, hidden: inputHidden }, mode, float, batch);
  // One head for the whole batch: every row is at the same codebook.
  c.inputs.unshift({ name: 'generation_step', dtype: 'int64', shape: [1] });
  c.outputs.unshift({ name: 'logits', dtype: float, shape: [batch, mode === 'eager' ? 'sequence_length' : 1, codebookSize] });
  return c;
}

export function embedContract(hidden: number): Contract {
  return {
    inputs: [{ name: 'input_ids', dtype: 'int64', shape: [1, 'sequence_length'] }],
    outputs: [{ name: 'inputs_embeds', dtype: 'float32', shape: [1, 'sequence_length', hidden] }],
  };
}

export function vocoderContract(codebooks: number): Contract {
  return {
    inputs: [
      { name: 'audio_codes', dtype: 'int64', shape: [1, 'frames', codebooks] },
      { name: 'noise', dtype: 'float32', shape: [1, 'samples'] },
      { name: 'phase0', dtype: 'float64', shape: [1] },
      { name: 'context_frames', dtype: 'int64', shape: [1] },
    ],
    outputs: [
      { name: 'audio', dtype: 'float32', shape: [1, 'samples'] },
      { name: 'end_phase', dtype: 'float64', shape: [1] },
    ],
  };
}

export function formatShape(shape: readonly (number | string)[]): string {
  return `[${shape.map((d) => (typeof d === 'number' ? String(d) : '?')).join(', ')}]`;
}
