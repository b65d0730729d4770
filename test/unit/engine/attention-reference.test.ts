import { describe, expect, it } from 'vitest';
import { Ops } from '../../../electron/engine/onnx-builder/ops.js';
import { buildDecoder, type DecoderSpec } from '../../../electron/engine/demo/decoder-graph.js';
import { ExportGraphBuilder } from '../../../electron/engine/demo/export-names.js';
import { weightSource } from '../../../electron/engine/demo/decoder-models.js';
import { f32Tensor, i64Tensor, openSession, run, type Feeds } from '../../../electron/engine/ort-session.js';

// One decoder layer (RMSNorm, RoPE, GQA 4 query heads over 2 KV heads, causal mask, SwiGLU) built by the
// demo builder, run in ONNX Runtime, against a plain float64 JS implementation of the same formulas
// (HF Llama/Qwen conventions: rotate-half RoPE, repeat_kv head order, softmax(q·k/sqrt(d))).
// Tolerance 1e-5 absolute: float32 accumulation over <= 32 terms of O(1) values gives errors ~1e-6.
const spec: DecoderSpec = { hidden: 16, layers: 1, heads: 4, kvHeads: 2, headDim: 4, ffn: 32, maxPositions: 8, ropeTheta: 10000, eps: 1e-6 };
const SEED = 7;
const TOL = 1e-5;

function buildLayer(mode: 'eager' | 'graph'): Uint8Array {
  const g = new ExportGraphBuilder('one-layer', mode);
  const o = new Ops(g, 'float32', weightSource(SEED, 'test'));
  const { hidden } = buildDecoder(o, spec, { mode });
  g.output(hidden, 'last_hidden_state', 'float32', [1, mode === 'eager' ? 'sequence_length' : 1, spec.hidden]);
  return g.toBytes();
}

const w = (name: string, count: number, std: number, mean = 0): Float64Array =>
  Float64Array.from(weightSource(SEED, 'test')(name, count, std, mean), (x) => Math.fround(x));

function rmsNorm(x: number[], weight: Float64Array): number[] {
  const ms = x.reduce((a, v) => a + v * v, 0) / x.length;
  return x.map((v, i) => (v / Math.sqrt(ms + spec.eps)) * weight[i]);
}

/** y = x · W with W stored [in, out] row-major. */
const matvec = (x: number[], W: Float64Array, out: number): number[] =>
  Array.from({ length: out }, (_, j) => x.reduce((a, v, i) => a + v * W[i * out + j], 0));

/** Rotate-half RoPE of one head vector at position p: pairs (i, i + d/2) rotated by p·theta^(-2i/d). */
export function rope(v: number[], p: number): number[] {
  const half = v.length / 2;
  const out = v.slice();
  for (let i = 0; i < half; i++) {
    const angle = p * Math.pow(spec.ropeTheta, (-2 * i) / v.length);
    out[i] = v[i] * Math.cos(angle) - v[i + half] * Math.sin(angle);
    out[i + half] = v[i + half] * Math.cos(angle) + v[i] * Math.sin(angle);
  }
  return out;
}

/** The whole one-layer decoder over a sequence, causal attention; returns final-normed hidden rows. */
function reference(xs: number[][]): number[][] {
  const { hidden: H, heads, kvHeads, headDim: D, ffn } = spec;
  const L = 'layers.0';
  const qW = w(`${L}.attn.q_proj.weight`, H * heads * D, 1 / Math.sqrt(H));
  const kW = w(`${L}.attn.k_proj.weight`, H * kvHeads * D, 1 / Math.sqrt(H));
  const vW = w(`${L}.attn.v_proj.weight`, H * kvHeads * D, 1 / Math.sqrt(H));
  const oW = w(`${L}.attn.o_proj.weight`, heads * D * H, 1 / Math.sqrt(heads * D));
  const n1 = w(`${L}.input_layernorm.weight`, H, 0.1, 1);
  const n2 = w(`${L}.post_attention_layernorm.weight`, H, 0.1, 1);
  const gW = w(`${L}.mlp.gate_proj.weight`, H * ffn, 1 / Math.sqrt(H));
  const uW = w(`${L}.mlp.up_proj.weight`, H * ffn, 1 / Math.sqrt(H));
  const dW = w(`${L}.mlp.down_proj.weight`, ffn * H, 1 / Math.sqrt(ffn));
  const nf = w('norm.weight', H, 0.1, 1);
  const head = (v: number[], h: number): number[] => v.slice(h * D, (h + 1) * D);
  const ks: number[][][] = [];
  const vs: number[][][] = [];
  return xs.map((x, p) => {
    const a = rmsNorm(x, n1);
    const q = matvec(a, qW, heads * D);
    const k = matvec(a, kW, kvHeads * D);
    const v = matvec(a, vW, kvHeads * D);
    ks.push(Array.from({ length: kvHeads }, (_, h) => rope(head(k, h), p)));
    vs.push(Array.from({ length: kvHeads }, (_, h) => head(v, h)));
    const ctx: number[] = [];
    for (let h = 0; h < heads; h++) {
      const kv = Math.floor(h / (heads / kvHeads)); // GQA: query head h reads KV head h / group
      const qh = rope(head(q, h), p);
      const scores = ks.map((kp) => qh.reduce((s, qi, i) => s + qi * kp[kv][i], 0) / Math.sqrt(D)); // keys 0..p only: causal
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((s, x) => s + x, 0);
      for (let i = 0; i < D; i++) ctx.push(e.reduce((s, ej, j) => s + (ej / z) * vs[j][kv][i], 0));
    }
    const h1 = x.map((xi, i) => xi + matvec(ctx, oW, H)[i]);
    const b = rmsNorm(h1, n2);
    const gate = matvec(b, gW, ffn);
    const up = matvec(b, uW, ffn);
    const act = gate.map((gv, i) => (gv / (1 + Math.exp(-gv))) * up[i]);
    const h2 = h1.map((hi, i) => hi + matvec(act, dW, H)[i]);
    return rmsNorm(h2, nf);
  });
}

const inputs: number[][] = Array.from({ length: 6 }, (_, t) => Array.from({ length: spec.hidden }, (_, i) => Math.fround(Math.sin(1.3 * t + 0.7 * i) * 1.5)));

function pastFeeds(len: number, kv: Float32Array[] | undefined, maxed: boolean): Feeds {
  const P = maxed ? spec.maxPositions : len;
  const feeds: Feeds = {};
  for (const [j, name] of ['key', 'value'].entries()) {
    feeds[`past_key_values.0.${name}`] = f32Tensor(kv?.[j] ?? new Float32Array(spec.kvHeads * P * spec.headDim), [1, spec.kvHeads, P, spec.headDim]);
  }
  return feeds;
}

describe('one decoder layer against a plain JS reference', () => {
  const expected = reference(inputs);

  it('eager: 4-position prefill, then 2 single-token steps on the concatenated KV cache', async () => {
    const { session } = await openSession(buildLayer('eager'), { optimize: false, ep: 'cpu' });
    const H = spec.hidden;
    const got: number[][] = [];
    let past: Float32Array[] | undefined;
    let len = 0;
    for (const n of [4, 1, 1]) {
      const x = Float32Array.from(inputs.slice(len, len + n).flat());
      const feeds: Feeds = {
        inputs_embeds: f32Tensor(x, [1, n, H]),
        attention_mask: i64Tensor(new BigInt64Array(len + n).fill(1n), [1, len + n]),
        position_ids: i64Tensor(BigInt64Array.from({ length: n }, (_, i) => BigInt(len + i)), [1, n]),
        ...pastFeeds(len, past, false),
      };
      const out = await run(session, feeds);
      const h = out.last_hidden_state.data as Float32Array;
      for (let t = 0; t < n; t++) got.push(Array.from(h.subarray(t * H, (t + 1) * H)));
      past = [out['present.0.key'].data as Float32Array, out['present.0.value'].data as Float32Array];
      len += n;
    }
    expect(got.length).toBe(6);
    for (let t = 0; t < 6; t++) for (let i = 0; i < H; i++) expect(Math.abs(got[t][i] - expected[t][i])).toBeLessThan(TOL);
    await session.release();
  });

  it('graph: static KV buffer written at the position, attention masked over the buffer', async () => {
    const { session } = await openSession(buildLayer('graph'), { optimize: true, ep: 'cpu' });
    const H = spec.hidden;
    const M = spec.maxPositions;
    let past: Float32Array[] | undefined;
    const mask = new BigInt64Array(M);
    for (let p = 0; p < 6; p++) {
      mask[p] = 1n;
      const feeds: Feeds = {
        inputs_embeds: f32Tensor(Float32Array.from(inputs[p]), [1, 1, H]),
        attention_mask: i64Tensor(mask, [1, M]),
        position_ids: i64Tensor(BigInt64Array.of(BigInt(p)), [1, 1]),
        ...pastFeeds(M, past, true),
      };
      const out = await run(session, feeds);
      const h = out.last_hidden_state.data as Float32Array;
      for (let i = 0; i < H; i++) expect(Math.abs(h[i] - expected[p][i])).toBeLessThan(TOL);
      past = [out['present.0.key'].data as Float32Array, out['present.0.value'].data as Float32Array];
    }
    await session.release();
  });

  it('RoPE: the cached key at position p is the projected key rotated by p·theta^(-2i/d)', async () => {
    // Hand check of the rotation itself: position 0 is the identity, and at p = 1 the first pair of a
    // 4-dim head turns by exactly 1 radian (theta^0), the second by 10000^(-1/2) = 0.01 radian.
    expect(rope([1, 2, 3, 4], 0)).toEqual([1, 2, 3, 4]);
    const r = rope([1, 0, 0, 0], 1);
    expect(r[0]).toBeCloseTo(Math.cos(1), 15);
    expect(r[2]).toBeCloseTo(Math.sin(1), 15);
    const { session } = await openSession(buildLayer('eager'), { optimize: false, ep: 'cpu' });
    const H = spec.hidden;
    const n = 3;
    const out = await run(session, {
      inputs_embeds: f32Tensor(Float32Array.from(inputs.slice(0, n).flat()), [1, n, H]),
      attention_mask: i64Tensor(new BigInt64Array(n).fill(1n), [1, n]),
      position_ids: i64Tensor(BigInt64Array.of(0n, 1n, 2n), [1, n]),
      ...pastFeeds(0, undefined, false),
    });
    const key = out['present.0.key'].data as Float32Array; // [1, kvHeads, n, headDim]
    const kW = w('layers.0.attn.k_proj.weight', H * spec.kvHeads * spec.headDim, 1 / Math.sqrt(H));
    const n1 = w('layers.0.input_layernorm.weight', H, 0.1, 1);
    for (let p = 0; p < n; p++) {
      const k = matvec(rmsNorm(inputs[p], n1), kW, spec.kvHeads * spec.headDim);
      for (let h = 0; h < spec.kvHeads; h++) {
        const want = rope(k.slice(h * spec.headDim, (h + 1) * spec.headDim), p);
        for (let i = 0; i < spec.headDim; i++) expect(Math.abs(key[(h * n + p) * spec.headDim + i] - want[i])).toBeLessThan(TOL);
      }
    }
    await session.release();
  });
});
