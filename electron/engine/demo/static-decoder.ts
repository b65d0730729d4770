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
  const x0 = decoderInput(o, spec, opts, 1);
  const mask = g.input('attention_mask', 'int64', [1, M]);
  const pos = g.input('position_ids', 'int64', [1, 1]);
  const past = Array.from({ length: spec.layers }, (_, i) => ({
    key: g.input(`past_key_values.${i}.key`, o.float, [1, kvHeads, M, D]),
    value: g.input(`past_key_values.${i}.value`, o.float, [1, kvHeads, M, D]),
  }));

  const rope = g.within('rope', () => {
    const r = ropeTables(o, pos, spec);
    const full = (t: string): string => g.node('Concat', [t, t], { attrs: { axis: 3 } });
    // This position's rotation as one [D, D] matrix, built once per run: I·cos + R·sin (column-wise).
    const identity = o.constant(`identity_${D}`, o.float, [D, D], Array.from({ length: D * D }, (_, k) => (k % (D + 1) === 0 ? 1 : 0)));
    const rotate = o.constant(`rotate_half_${D}`, o.float, [D, D], rotateHalf(D));
    return o.op('Add', [o.op('Mul', [identity, full(r.cos)]), o.op('Mul', [rotate, full(r.sin)])], undefined, g.fullName('rotation'));
  });
  const { bias, writeAt } = g.within('mask', () => {
    const kpos = o.constant(`positions_${M}`, 'int64', [M], Array.from({ length: M }, (_, i) => i));
    const flat = o.reshape(pos, [1]);
    const causal = o.op('LessOrEqual', [kpos, flat]);
    const visible = o.op('And', [causal, o.reshape(o.cast(mask, 'bool'), [M])]);
    // ScatterND indices [1, kvHeads, 1, 3]: (0, h, position) for each KV head.
    const base = o.constant(`kv_rows_${kvHeads}`, 'int64', [1, kvHeads, 1, 3], Array.from({ length: kvHeads }, (_, h) => [0, h, 0]).flat());
    const at = o.op('Add', [base, o.op('Mul', [flat, o.ints([0, 0, 1])])]);
    // Additive mask, built once per run: 0 where visible, -inf elsewhere (scores + 0 is exact).
    const bias = o.op('Where', [o.reshape(visible, [1, 1, 1, M]), o.floatScalar(0), o.floatScalar(-Infinity)]);
    return { bias, writeAt: at };
  });

  let x = x0;
  for (let i = 0; i < spec.layers; i++) {
    x = g.within(`layers.${i}`, () => {
      const attnIn = g.within('input_layernorm', () => namedRmsNorm(o, x, o.param('weight', [hidden], 0.1, 1), spec.eps));
      const attn = g.within('attn', () => {
        const std = 1 / Math.sqrt(hidden);
        const w = (name: string, n: number): string => o.param(`${name}.weight`, [hidden, n * D], std);
        const qkvW = g.node('Concat', [w('q_proj', heads), w('k_proj', kvHeads), w('v_proj', kvHeads)], { attrs: { axis: 1 } });
        const qkv = o.reshape(o.matmul(attnIn, qkvW), [1, heads + 2 * kvHeads, 1, D]);
        const [qk, v] = g.nodeMulti('Split', [qkv, o.ints([heads + kvHeads, kvHeads])], { attrs: { axis: 1 }, outputNames: [g.privateName('qk'), g.shared('v')] });
        const rotated = g.within('rope', () => o.matmul(qk, rope));
        const [q, k] = g.nodeMulti('Split', [rotated, o.ints([heads, kvHeads])], { attrs: { axis: 1 }, outputNames: [g.shared('q_rope'), g.shared('k_rope')] });
        const write = (which: 'key' | 'value', from: string, update: string): string =>
          g.node('ScatterND', [from, writeAt, update], { name: g.privateName(`kv_write.${which}`), outputNames: [`present.${i}.${which}`] });
        const presentKey = write('key', past[i].key, k);
        const presentValue = write('value', past[i].value, v);
        const qg = o.reshape(q, [1, kvHeads, heads / kvHeads, D]);
        const scores = o.op('Mul', [o.matmul(qg, o.transpose(presentKey, [0, 1, 3, 2])), o.floatScalar(1 / Math.sqrt(D))], undefined, g.privateName('scores'));
        // scores/masked/probs span the whole buffer here and the cache's T positions in eager: not shared.
        const masked = o.op('Add', [scores, bias], undefined, g.privateName('masked'));
        const probs = o.op('Softmax', [masked], { axis: -1 }, g.privateName('probs'));
        const merged = o.op('Reshape', [o.matmul(probs, presentValue), o.ints([1, 1, heads * D])], undefined, g.shared('context'));
        return o.op('MatMul', [merged, o.param('o_proj.weight', [heads * D, hidden], 1 / Math.sqrt(heads * D))], undefined, g.shared('o_proj.out'));
      });
      g.output(`present.${i}.key`, `present.${i}.key`, o.float, [1, kvHeads, M, D]);
      g.output(`present.${i}.value`, `present.${i}.value`, o.float, [1, kvHeads, M, D]);
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

/** R [D, D] with x·R = rotate_half(x) = [-x2, x1]. */
function rotateHalf(D: number): number[] {
  const half = D / 2;
  const r = new Array<number>(D * D).fill(0);
  for (let j = 0; j < half; j++) r[(j + half) * D + j] = -1;
  for (let j = half; j < D; j++) r[(j - half) * D + j] = 1;
  return r;
}
