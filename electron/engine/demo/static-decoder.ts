import type { Ops } from '../onnx-builder/ops.js';
import type { DecoderIo, DecoderOptions, DecoderSpec } from './decoder-graph.js';
import { decoderInput } from './decoder-input.js';
import { exportBuilder } from './export-names.js';
import { namedRmsNorm, namedSilu } from './named-ops.js';
import { ropeTables } from './rope-tables.js';

/**
 * The graph-mode decoder: one token per run, every shape fixed, KV buffers [1, kvHeads, M, headDim]
 * written in place at the step's row by ScatterND (the node writes the `present.*` output itself, so a
 * caller that binds the same buffer as past and present gets the row written with no copy of the rest).
 * Same weights (same initializer names) and the same arithmetic as the eager graph, laid out for a
 * compiler: q/k/v and gate/up projections each one MatMul over Concat-ed weights (folded at load),
 * rotate-half RoPE as x·cos + (x·R)·sin with R a signed permutation (exact: one non-zero per column),
 * RMSNorm in the Pow/ReduceMean/Add/Sqrt/Div/Mul form that ONNX Runtime fuses, and 4-D attention.
 */
export function buildStaticDecoder(o: Ops, spec: DecoderSpec, opts: DecoderOptions): DecoderIo {
  const g = exportBuilder(o.g);
  const { hidden, heads, kvHeads, headDim: D, maxPositions: M } = spec;
  if (typeof opts.batch === 'string') throw new Error('graph decoder: a graph export has a fixed batch bucket, not a symbolic batch');
  // B rows (a batched graph export's bucket), each at its own position: row b writes its K/V at position_ids[b].
  const B = opts.batch ?? 1;
  const x0 = decoderInput(o, spec, opts, 1);
  const mask = g.input('attention_mask', 'int64', [B, M]);
  const pos = g.input('position_ids', 'int64', [B, 1]);
  const past = Array.from({ length: spec.layers }, (_, i) => ({
    key: g.input(`past_key_values.${i}.key`, o.float, [B, kvHeads, M, D]),
    value: g.input(`past_key_values.${i}.value`, o.float, [B, kvHeads, M, D]),
  }));

  const rope = g.within('rope', () => {
    const r = ropeTables(o, pos, spec);
    const full = (t: string): string => g.node('Concat', [t, t], { attrs: { axis: 3 } });
    // This position's rotation as one [D, D] matrix, built once per run: I·cos + R·sin (column-wise).
    const identity = o.constant(`identity_${D}`, o.float, [D, D], Array.from({ length: D * D }, (_, k) => (k % (D + 1) === 0 ? 1 : 0)));
    const rotate = o.constant(`rotate_half_${D}`, o.float, [D, D], rotateHalf(D));
    return o.op('Add', [o.op('Mul', [identity, full(r.cos)]), o.op('Mul', [rotate, full(r.sin)])], undefined, g.fullName('rotation'));
  });
  const { bias, writeAt } = g.within('mask', () => (opts.batch === undefined ? maskAndWriteRows(o, mask, pos, kvHeads, M) : batchedMaskAndWriteRows(o, mask, pos, kvHeads, M, B)));

  let x = x0;
  for (let i = 0; i < spec.layers; i++) {
    x = g.within(`layers.${i}`, () => {
      const attnIn = g.within('input_layernorm', () => namedRmsNorm(o, x, o.param('weight', [hidden], 0.1, 1), spec.eps));
      const attn = g.within('attn', () => {
        const std = 1 / Math.sqrt(hidden);
        const w = (name: string, n: number): string => o.param(`${name}.weight`, [hidden, n * D], std);
        const qkvW = g.node('Concat', [w('q_proj', heads), w('k_proj', kvHeads), w('v_proj', kvHeads)], { attrs: { axis: 1 } });
        const qkv = o.reshape(o.matmul(attnIn, qkvW), [B, heads + 2 * kvHeads, 1, D]);
        const [qk, v] = g.nodeMulti('Split', [qkv, o.ints([heads + kvHeads, kvHeads])], { attrs: { axis: 1 }, outputNames: [g.privateName('qk'), g.shared('v')] });
        const rotated = g.within('rope', () => o.matmul(qk, rope));
        const [q, k] = g.nodeMulti('Split', [rotated, o.ints([heads, kvHeads])], { attrs: { axis: 1 }, outputNames: [g.shared('q_rope'), g.shared('k_rope')] });
        const write = (which: 'key' | 'value', from: string, update: string): string =>
          g.node('ScatterND', [from, writeAt, update], { name: g.privateName(`kv_write.${which}`), outputNames: [`present.${i}.${which}`] });
        const presentKey = write('key', past[i].key, k);
        const presentValue = write('value', past[i].value, v);
        const qg = o.reshape(q, [B, kvHeads, heads / kvHeads, D]);
        const scores = o.op('Mul', [o.matmul(qg, o.transpose(presentKey, [0, 1, 3, 2])), o.floatScalar(1 / Math.sqrt(D))], undefined, g.privateName('scores'));
        // scores/masked/probs span the whole buffer here and the cache's T positions in eager: not shared.
        const masked = o.op('Add', [scores, bias], undefined, g.privateName('masked'));
        const probs = o.op('Softmax', [masked], { axis: -1 }, g.privateName('probs'));
        const merged = o.op('Reshape', [o.matmul(probs, presentValue), o.ints([B, 1, heads * D])], undefined, g.shared('context'));
        return o.op('MatMul', [merged, o.param('o_proj.weight', [heads * D, hidden], 1 / Math.sqrt(heads * D))], undefined, g.shared('o_proj.out'));
      });
      g.output(`present.${i}.key`, `present.${i}.key`, o.float, [B, kvHeads, M, D]);
      g.output(`present.${i}.value`, `present.${i}.value`, o.float, [B, kvHeads, M, D]);
      const h = o.op('Add', [x, attn], undefined, g.shared('residual_1'));
      const mlpIn = g.within('post_attention_layernorm', () => namedRmsNorm(o, h, o.param('weight', [hidden], 0.1, 1), spec.eps));
      const scale = opts.overflow?.layer === i ? opts.overflow.scale : undefined;
      const mlp = g.within('mlp', () => {
        const std = 1 / Math.sqrt(hidden);
        const gateUpW = g.node('Concat', [o.param('gate_proj.weight', [hidden, spec.ffn], std), o.param('up_proj.weight', [hidden, spec.ffn], std)], { attrs: { axis: 1 } });
        const gateUp = [g.shared('gate'), g.shared('up')];
        const [gate, up] = g.nodeMulti('Split', [o.matmul(mlpIn, gateUpW), o.ints([spec.ffn, spec.ffn])], { attrs: { axis: 2 }, outputNames: gateUp });
        let act = o.op('Mul', [namedSilu(o, gate), up], undefined, g.shared('act'));
        if (scale) act = o.op('Mul', [act, o.floatScalar(scale)], undefined, g.shared('act_scaled'));
        const downW = (): string => o.param('down_proj.weight', [spec.ffn, hidden], 1 / Math.sqrt(spec.ffn));
        if (!scale) return o.op('MatMul', [act, downW()], undefined, g.shared('down.out'));
        return o.op('Mul', [o.matmul(act, downW()), o.floatScalar(1 / scale)], undefined, g.shared('down.out'));
      });
      return o.op('Add', [h, mlp], undefined, g.shared('residual_2'));
    });
  }
  const hiddenOut = g.within('norm', () => namedRmsNorm(o, x, o.param('weight', [hidden], 0.1, 1), spec.eps));
  return { hidden: hiddenOut };
}

/**
 * The batch-1 export's additive mask [1, 1, 1, M] (0 where visible: causal and attention_mask; -inf
 * elsewhere, so scores + 0 is exact) and its ScatterND write indices [1, kvHeads, 1, 3]: (0, h, position).
 */
function maskAndWriteRows(o: Ops, mask: string, pos: string, kvHeads: number, M: number): { bias: string; writeAt: string } {
  const kpos = o.constant(`positions_${M}`, 'int64', [M], Array.from({ length: M }, (_, i) => i));
  const flat = o.reshape(pos, [1]);
  const causal = o.op('LessOrEqual', [kpos, flat]);
  const visible = o.op('And', [causal, o.reshape(o.cast(mask, 'bool'), [M])]);
  const base = o.constant(`kv_rows_${kvHeads}`, 'int64', [1, kvHeads, 1, 3], Array.from({ length: kvHeads }, (_, h) => [0, h, 0]).flat());
  const at = o.op('Add', [base, o.op('Mul', [flat, o.ints([0, 0, 1])])]);
  const bias = o.op('Where', [o.reshape(visible, [1, 1, 1, M]), o.floatScalar(0), o.floatScalar(-Infinity)]);
  return { bias, writeAt: at };
}

/**
 * The same for B rows at their own positions: bias [B, 1, 1, M], write indices [B, kvHeads, 1, 3] =
 * (b, h, position_ids[b]). A query also sees its own key, so an idle row (padding: nothing visible)
 * attends to itself and stays finite instead of giving NaN.
 */
function batchedMaskAndWriteRows(o: Ops, mask: string, pos: string, kvHeads: number, M: number, B: number): { bias: string; writeAt: string } {
  const kpos = o.constant(`positions_${M}`, 'int64', [M], Array.from({ length: M }, (_, i) => i));
  const col = o.reshape(pos, [B, 1]);
  const causal = o.op('LessOrEqual', [kpos, col]);
  const visible = o.op('And', [causal, o.op('Or', [o.cast(mask, 'bool'), o.op('Equal', [kpos, col])])]);
  const rows = Array.from({ length: B }, (_, b) => Array.from({ length: kvHeads }, (_, h) => [b, h, 0]).flat()).flat();
  const base = o.constant(`kv_rows_${B}x${kvHeads}`, 'int64', [B, kvHeads, 1, 3], rows);
  const at = o.op('Add', [base, o.op('Mul', [o.reshape(pos, [B, 1, 1, 1]), o.ints([0, 0, 1])])]);
  const bias = o.op('Where', [o.reshape(visible, [B, 1, 1, M]), o.floatScalar(0), o.floatScalar(-Infinity)]);
  return { bias, writeAt: at };
}

/** R [D, D] with x·R = rotate_half(x) = [-x2, x1]. */
function rotateHalf(D: number): number[] {
  const half = D / 2;
  const r = new Array<number>(D * D).fill(0);
  for (let j = 0; j < half; j++) r[(j + half) * D + j] = -1;
  for (let j = half; j < D; j++) r[(j - half) * D + j] = 1;
  return r;
}
