import type { Ops } from '../onnx-builder/ops.js';
import type { Dim } from '../onnx-builder/graph-builder.js';
import { decoderInput } from './decoder-input.js';
import { exportBuilder } from './export-names.js';
import { namedRmsNorm, namedSilu } from './named-ops.js';
import { ropeTables, type Rope } from './rope-tables.js';
import { buildStaticDecoder } from './static-decoder.js';

/** Sizes of one decoder-only transformer (talker or code predictor). */
export interface DecoderSpec {
  hidden: number;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  ffn: number;
  maxPositions: number;
  ropeTheta: number;
  eps: number;
}

/**
 * eager: dynamic sequence and past lengths, KV grown by Concat (this file).
 * graph: one token per run, fixed [1, kvHeads, maxPositions, headDim] KV buffers written in place at
 * the step's position by ScatterND, attention masked over the whole buffer; no data-dependent shape
 * (static-decoder.ts).
 */
export type DecoderMode = 'eager' | 'graph';

export interface DecoderOptions {
  mode: DecoderMode;
  /** fp16-overflow fault: scale this layer's MLP activation by `scale` before down_proj and back after. */
  overflow?: { layer: number; scale: number };
  /**
   * Width of inputs_embeds when it differs from `hidden`: the inputs are projected to `hidden` by a
   * bias-free Linear (`small_to_mtp_projection`, as Qwen3-TTS's code predictor) before the first layer.
   */
  inputHidden?: number;
  /**
   * A batched export (bundle.json `batch`): `batch_size` (eager, symbolic) or the graph export's fixed
   * bucket. Absent: the batch-1 export, whose bytes do not change. Batched, a query also sees its own
   * key (so a padding position attends to itself instead of to nothing, which would give NaN), and
   * eager's causal mask compares cache indices, not position_ids (left padding makes them differ).
   */
  batch?: number | 'batch_size';
}

export interface DecoderIo {
  /** Final-normed hidden state [1, S, hidden]. */
  hidden: string;
}

/**
 * Declares the HF-Optimum-named inputs/outputs and builds the decoder stack; returns the final hidden.
 * Inputs: inputs_embeds, attention_mask, position_ids, past_key_values.{i}.key|value.
 * Outputs declared here: present.{i}.key|value (the caller adds logits and last_hidden_state).
 */
export function buildDecoder(o: Ops, spec: DecoderSpec, opts: DecoderOptions): DecoderIo {
  if (opts.mode === 'graph') return buildStaticDecoder(o, spec, opts);
  const { g } = o;
  const S: Dim = 'sequence_length';
  const P: Dim = 'past_sequence_length';
  const T: Dim = 'total_sequence_length';
  const B: Dim = opts.batch ?? 1;
  const x0 = decoderInput(o, spec, opts, S);
  const mask = g.input('attention_mask', 'int64', [B, T]);
  const pos = g.input('position_ids', 'int64', [B, S]);
  const past = Array.from({ length: spec.layers }, (_, i) => ({
    key: g.input(`past_key_values.${i}.key`, o.float, [B, spec.kvHeads, P, spec.headDim]),
    value: g.input(`past_key_values.${i}.value`, o.float, [B, spec.kvHeads, P, spec.headDim]),
  }));

  const rope = g.within('rope', () => ropeTables(o, pos, spec));
  const allowed = g.within('mask', () => (opts.batch === undefined ? attentionMask(o, mask, pos, past[0].key) : batchedAttentionMask(o, mask, pos, past[0].key)));

  let x = x0;
  for (let i = 0; i < spec.layers; i++) {
    x = g.within(`layers.${i}`, () => {
      const attnIn = g.within('input_layernorm', () => namedRmsNorm(o, x, o.param('weight', [spec.hidden], 0.1, 1), spec.eps));
      const attn = g.within('attn', () => attention(o, attnIn, past[i], rope, allowed, spec, opts.batch === undefined ? 1 : 0));
      g.output(attn.presentKey, `present.${i}.key`, o.float, [B, spec.kvHeads, T, spec.headDim]);
      g.output(attn.presentValue, `present.${i}.value`, o.float, [B, spec.kvHeads, T, spec.headDim]);
      const h = o.op('Add', [x, attn.out], undefined, g.fullName('residual_1'));
      const mlpIn = g.within('post_attention_layernorm', () => namedRmsNorm(o, h, o.param('weight', [spec.hidden], 0.1, 1), spec.eps));
      const scale = opts.overflow?.layer === i ? opts.overflow.scale : undefined;
      const mlp = g.within('mlp', () => swiglu(o, mlpIn, spec, scale));
      return o.op('Add', [h, mlp], undefined, g.fullName('residual_2'));
    });
  }
  const hidden = g.within('norm', () => namedRmsNorm(o, x, o.param('weight', [spec.hidden], 0.1, 1), spec.eps));
  return { hidden };
}

/** Rotate-half RoPE on x [1, h, S, headDim]; the result is named `name`. */
function applyRope(o: Ops, x: string, r: Rope, headDim: number, name: string): string {
  const half = headDim / 2;
  const x1 = o.slice(x, [0], [half], [3]);
  const x2 = o.slice(x, [half], [headDim], [3]);
  const a = o.op('Sub', [o.op('Mul', [x1, r.cos]), o.op('Mul', [x2, r.sin])]);
  const b = o.op('Add', [o.op('Mul', [x2, r.cos]), o.op('Mul', [x1, r.sin])]);
  return o.g.node('Concat', [a, b], { attrs: { axis: 3 }, name });
}

/** [1, 1, 1, S, T] bool: key j visible to query i (causal and attention_mask). */
function attentionMask(o: Ops, mask: string, pos: string, pastKey: string): string {
  // T = past length + S, read from the shapes (the graph's only shape arithmetic, all static per run).
  const pastLen = o.op('Shape', [pastKey], { start: 2, end: 3 });
  const seqLen = o.op('Shape', [pos], { start: 1, end: 2 });
  const total = o.op('Squeeze', [o.op('Add', [pastLen, seqLen]), o.ints([0])]);
  const kpos = o.op('Range', [o.intScalar(0), total, o.intScalar(1)]);
  const qpos = o.op('Unsqueeze', [pos, o.ints([2])]);
  const causal = o.op('LessOrEqual', [kpos, qpos]);
  const visible = o.op('Unsqueeze', [o.cast(mask, 'bool'), o.ints([1])]);
  return o.op('Unsqueeze', [o.op('And', [causal, visible]), o.ints([1, 2])]);
}

/**
 * [B, 1, 1, S, T] bool for a batched eager export: key j visible to query i when j ≤ i's cache index
 * (past length + i) and attention_mask[b, j] is 1, or j is i itself. Rows are left-padded (docs/bundle-format.md
 * "Batch support"), so a row's position_ids (RoPE) start after its padding while cache indices do not.
 */
function batchedAttentionMask(o: Ops, mask: string, pos: string, pastKey: string): string {
  const pastLen = o.op('Squeeze', [o.op('Shape', [pastKey], { start: 2, end: 3 }), o.ints([0])]);
  const seqLen = o.op('Squeeze', [o.op('Shape', [pos], { start: 1, end: 2 }), o.ints([0])]);
  const kpos = o.op('Range', [o.intScalar(0), o.op('Add', [pastLen, seqLen]), o.intScalar(1)]);
  const qidx = o.op('Unsqueeze', [o.op('Add', [o.op('Range', [o.intScalar(0), seqLen, o.intScalar(1)]), pastLen]), o.ints([1])]);
  const causal = o.op('LessOrEqual', [kpos, qidx]);
  const own = o.op('Equal', [kpos, qidx]);
  const visible = o.op('Or', [o.op('Unsqueeze', [o.cast(mask, 'bool'), o.ints([1])]), own]);
  return o.op('Unsqueeze', [o.op('And', [causal, visible]), o.ints([1, 2])]);
}

interface AttentionOut {
  out: string;
  presentKey: string;
  presentValue: string;
}

/**
 * Grouped-query attention: heads/kvHeads query heads share each KV head (HF repeat_kv order). `b` is
 * the reshapes' batch dimension: 1 (the batch-1 export), or 0 (copy the input's, a batched export).
 */
function attention(
  o: Ops,
  x: string,
  past: { key: string; value: string },
  rope: Rope,
  allowed: string,
  spec: DecoderSpec,
  b: 0 | 1,
): AttentionOut {
  const { heads, kvHeads, headDim, hidden } = spec;
  const group = heads / kvHeads;
  const std = 1 / Math.sqrt(hidden);
  const g = exportBuilder(o.g);
  const proj = (name: string, n: number, out?: string): string => {
    const y = o.matmul(x, o.param(`${name}.weight`, [hidden, n * headDim], std));
    return o.op('Transpose', [o.reshape(y, [0, 0, n, headDim])], { perm: [0, 2, 1, 3] }, out);
  };
  const qProj = proj('q_proj', heads);
  const kProj = proj('k_proj', kvHeads);
  const [qName, kName] = [g.shared('q_rope'), g.shared('k_rope')];
  const q = o.g.within('q_rope', () => applyRope(o, qProj, rope, headDim, qName));
  const k = o.g.within('k_rope', () => applyRope(o, kProj, rope, headDim, kName));
  const v = proj('v_proj', kvHeads, g.shared('v'));
  const presentKey = o.g.node('Concat', [past.key, k], { attrs: { axis: 2 }, name: g.privateName('kv_write.key') });
  const presentValue = o.g.node('Concat', [past.value, v], { attrs: { axis: 2 }, name: g.privateName('kv_write.value') });
  const qg = o.reshape(q, [b, kvHeads, group, -1, headDim]);
  const kt = o.transpose(o.reshape(presentKey, [b, kvHeads, 1, -1, headDim]), [0, 1, 2, 4, 3]);
  const scores = o.op('Mul', [o.matmul(qg, kt), o.floatScalar(1 / Math.sqrt(headDim))], undefined, g.privateName('scores'));
  // scores/masked/probs span the cache's T positions here and the graph export's whole buffer: not shared.
  const masked = o.op('Where', [allowed, scores, o.floatScalar(-Infinity)], undefined, g.privateName('masked'));
  const probs = o.op('Softmax', [masked], { axis: -1 }, g.privateName('probs'));
  const ctx = o.matmul(probs, o.reshape(presentValue, [b, kvHeads, 1, -1, headDim]));
  const merged = o.op('Reshape', [o.transpose(o.reshape(ctx, [b, heads, -1, headDim]), [0, 2, 1, 3]), o.ints([0, 0, heads * headDim])], undefined, g.shared('context'));
  const out = o.op('MatMul', [merged, o.param('o_proj.weight', [heads * headDim, hidden], 1 / Math.sqrt(heads * headDim))], undefined, g.shared('o_proj.out'));
  return { out, presentKey, presentValue };
}

function swiglu(o: Ops, x: string, spec: DecoderSpec, overflowScale?: number): string {
  const std = 1 / Math.sqrt(spec.hidden);
  const g = exportBuilder(o.g);
  const gate = o.op('MatMul', [x, o.param('gate_proj.weight', [spec.hidden, spec.ffn], std)], undefined, g.shared('gate'));
  const up = o.op('MatMul', [x, o.param('up_proj.weight', [spec.hidden, spec.ffn], std)], undefined, g.shared('up'));
  let act = o.op('Mul', [namedSilu(o, gate), up], undefined, g.shared('act'));
  // A power of two is exact in fp32, so only the fp16 export can overflow here.
  if (overflowScale) act = o.op('Mul', [act, o.floatScalar(overflowScale)], undefined, g.shared('act_scaled'));
  const downW = (): string => o.param('down_proj.weight', [spec.ffn, spec.hidden], 1 / Math.sqrt(spec.ffn));
  if (!overflowScale) return o.op('MatMul', [act, downW()], undefined, g.shared('down.out'));
  const down = o.matmul(act, downW());
  return o.op('Mul', [down, o.floatScalar(1 / overflowScale)], undefined, g.shared('down.out'));
}
