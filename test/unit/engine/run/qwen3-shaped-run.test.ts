import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParityError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY, type SamplingParams } from '../../../../electron/common/sampling/types.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { codecRow, embedTableValues } from '../../../../electron/engine/demo/decoder-models.js';
import { QWEN3_SHAPED } from '../../../../electron/engine/demo/qwen3-shaped-config.js';
import { Engine } from '../../../../electron/engine/engine.js';
import type { DecoderOutput, DecoderRunner } from '../../../../electron/engine/run/decoder-runners.js';
import { synthesizeWith } from '../../../../electron/engine/synthesize.js';
import type { SynthesisRequest } from '../../../../electron/engine/types.js';
import { planFor, qwenRoot } from '../bundle/qwen3-bundle.js';

const V = QWEN3_SHAPED.codebookSize; // 32, codebook 0's size
const SIZES = QWEN3_SHAPED.codebookSizes as number[]; // [32, 32, 24, 16]
const EOS = QWEN3_SHAPED.eosCode; // 38
const request = (text: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ text, profile: parseProfile('eager'), seed: 1, sampling: GREEDY, ...extra });
const bytes = (a: Float32Array | Int32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Wraps a decoder so a test sees (and may rewrite) what it is fed and what it returns. */
function wrap(inner: DecoderRunner, onForward: (embeds: Float32Array, n: number, out: DecoderOutput) => DecoderOutput): DecoderRunner {
  return {
    reset: () => inner.reset(),
    forward: async (embeds, n, extra) => onForward(Float32Array.from(embeds), n, await inner.forward(embeds, n, extra)),
  };
}

let q: Awaited<ReturnType<typeof qwenRoot>>;
let dir: string;
beforeAll(async () => {
  q = await qwenRoot('qwen3-shaped-run-');
  dir = await q.bundle('qwen');
});
afterAll(() => q.dispose());

describe('the Qwen3-shaped demo bundle (every format feature beyond the demo) builds and runs', () => {
  it('eager and graph give the same codes with a speaker and an instruction; codes stay inside each codebook', async () => {
    const engine = await Engine.open(dir);
    try {
      const req = request('hello there, world', { speaker: 'vivian', instruction: 'calm' });
      const eager = await engine.synthesize(req);
      const graph = await engine.synthesize({ ...req, profile: parseProfile('graph') });
      // 18 code points × 0.5 = 9 frames.
      expect(eager.frames).toBe(9);
      expect(bytes(graph.codes).equals(bytes(eager.codes))).toBe(true);
      for (let f = 0; f < eager.frames; f++) for (let c = 0; c < 4; c++) expect(eager.codes[f * 4 + c]).toBeLessThan(SIZES[c]);
      // The slots change the prefill, so the codes differ without them (the slots are read at all).
      const plain = await engine.synthesize(request('hello there, world'));
      expect(bytes(plain.codes).equals(bytes(eager.codes))).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it('special ids are masked before sampling (a raw argmax ≥ 32 never becomes a code) and the stats are of the raw row', async () => {
    const engine = await Engine.open(dir);
    try {
      const r = await engine.synthesize(request('hello there, world', { speaker: 'vivian', instruction: 'calm' }));
      const special = r.steps.filter((s) => s.logits.argmax >= V);
      // This seed's untrained talker prefers a special id at some step (the mask has work to do).
      expect(special.length).toBeGreaterThan(0);
      for (const s of special) expect(s.codes[0]).not.toBe(s.logits.argmax);
      // Per-codebook sizes: codebooks 2 and 3 (24, 16 codes) see raw argmaxes past their size, never as codes.
      const past = r.steps.flatMap((s) => (s.codePredictorLogits ?? []).map((l, i) => ({ cb: i + 1, argmax: l.argmax, code: s.codes[i + 1] }))).filter((x) => x.argmax >= SIZES[x.cb]);
      expect(past.length).toBeGreaterThan(0);
      for (const x of past) expect(x.code).toBeLessThan(SIZES[x.cb]);
    } finally {
      await engine.close();
    }
  });

  it('the trace statistics cover the raw row, EOS included: an EOS logit above all is the recorded argmax and max, yet no code', async () => {
    const { plan, close } = await planFor(dir);
    try {
      plan.talker = wrap(plan.talker, (_e, _n, out) => {
        const logits = Float32Array.from(out.logits);
        logits[EOS] = 1e6;
        return { ...out, logits };
      });
      const r = await synthesizeWith(plan, request('hi there'));
      for (const s of r.steps) {
        expect(s.logits.argmax).toBe(EOS);
        expect(s.logits.max).toBe(1e6);
        expect(s.codes[0]).toBeLessThan(V);
      }
    } finally {
      await close();
    }
  });

  it('a code outside its codebook is refused naming step and code (all-−inf logits in sample mode pick the last id, 47)', async () => {
    const { plan, close } = await planFor(dir);
    try {
      plan.talker = wrap(plan.talker, (_e, _n, out) => ({ ...out, logits: new Float32Array(out.logits.length).fill(-Infinity) }));
      const sampling: SamplingParams = { mode: 'sample', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 };
      const error = await synthesizeWith(plan, request('hi there', { sampling })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParityError);
      expect((error as ParityError).kind).toBe('bundle'); // the bundle's logits are at fault: exit 2
      expect((error as ParityError).message).toBe(
        'step 1: the talker gave code 47 for codebook 0, outside 0..31 (codebook size 32); refused before it reaches the embeddings and the vocoder',
      );
    } finally {
      await close();
    }
  });
});

describe('prefill template and per-step text conditioning, against the table file read independently', () => {
  it('the talker is fed the template (text row + codec row per position), then feedback + trailing text, tts_eos, tts_pad', async () => {
    // A float32 raw table, so the expected rows are the builder's own values with no float16 rounding.
    const cfg = { ...QWEN3_SHAPED, embedTable: { format: 'raw' as const, dtype: 'float32' as const } };
    const raw = await q.bundle('qwen-raw-f32', { config: cfg, presets: ['eager'] });
    const m = JSON.parse(await readFile(join(raw, 'bundle.json'), 'utf8')) as BundleManifest;
    const H = cfg.talker.hidden;
    const values = embedTableValues(7, cfg);
    const row = (id: number): Float32Array => values.subarray(id * H, (id + 1) * H);
    // Each position sums its rows into a float32 accumulator in the engine's order (text, then codec; codebooks 0..Q−1, then text).
    const sum = (ids: number[]): Float32Array => {
      const out = new Float32Array(H);
      for (const id of ids) for (let i = 0; i < H; i++) out[i] += row(id)[i];
      return out;
    };
    const codec = (c: number, code: number): number => codecRow(c, code, cfg);
    expect(m.embed.codecRowOffset).toBe(codec(0, 0));

    const { plan, close } = await planFor(raw);
    const fed: { embeds: Float32Array; n: number }[] = [];
    plan.talker = wrap(plan.talker, (embeds, n, out) => {
      fed.push({ embeds, n });
      return out;
    });
    try {
      const text = 'hi there'; // 8 code points × 0.5 = 4 frames
      const r = await synthesizeWith(plan, request(text, { speaker: 'ryan', instruction: 'calm' }));
      const b = (s: string): number[] => [...new TextEncoder().encode(s)];
      const prefill = [
        ...b('calm').map((t) => [t]), // instruction slot
        [256], [257], [258], // <|im_start|> assistant \n
        [261, codec(0, 42)], [261, codec(0, 43)], [261, codec(0, 44)], // tts_pad + think tokens
        [261, codec(0, 47)], // tts_pad + speaker "ryan"
        [259, codec(0, 36)], // tts_bos + codec_pad
        [b('h')[0], codec(0, 37)], // first text token + codec_bos
      ];
      expect(fed[0].n).toBe(prefill.length);
      const expected = new Float32Array(prefill.length * H);
      prefill.forEach((ids, i) => expected.set(sum(ids), i * H));
      expect(bytes(fed[0].embeds).equals(bytes(expected))).toBe(true);
      // Trailing text after "h": "i there" (7 bytes), then tts_eos 260, then tts_pad 261; 4 frames use 3 of them.
      const trailing = [...b('i there'), 260];
      expect(r.frames).toBe(4);
      for (let s = 2; s <= r.frames; s++) {
        const prev = Array.from(r.codes.subarray((s - 2) * 4, (s - 1) * 4));
        const want = sum([...prev.map((code, c) => codec(c, code)), trailing[s - 2] ?? 261]);
        expect(fed[s - 1].n).toBe(1);
        expect(bytes(fed[s - 1].embeds).equals(bytes(want)), `step ${s}`).toBe(true);
      }
    } finally {
      await close();
    }
  });

  it('past the trailing text the pad row is added: a 1-character text conditions every decode step with tts_eos then tts_pad', async () => {
    const cfg = { ...QWEN3_SHAPED, framesPerChar: 4, embedTable: { format: 'raw' as const, dtype: 'float32' as const } };
    const raw = await q.bundle('qwen-raw-pad', { config: cfg, presets: ['eager'] });
    const H = cfg.talker.hidden;
    const values = embedTableValues(7, cfg);
    const { plan, close } = await planFor(raw);
    const fed: Float32Array[] = [];
    plan.talker = wrap(plan.talker, (embeds, _n, out) => {
      fed.push(embeds);
      return out;
    });
    try {
      const r = await synthesizeWith(plan, request('a'));
      expect(r.frames).toBe(4);
      for (let s = 2; s <= 4; s++) {
        const want = new Float32Array(H);
        const ids = [...Array.from(r.codes.subarray((s - 2) * 4, (s - 1) * 4)).map((code, c) => codecRow(c, code, cfg)), s === 2 ? 260 : 261];
        for (const id of ids) for (let i = 0; i < H; i++) want[i] += values[id * H + i];
        expect(bytes(fed[s - 1]).equals(bytes(want)), `step ${s}`).toBe(true);
      }
    } finally {
      await close();
    }
  });
});

describe('embed.table read by rows', () => {
  it('a float32 raw table gives bit-identical codes and audio to the same weights as embed.onnx (Gather copies rows exactly)', async () => {
    const { embedTable: _, ...onnxCfg } = QWEN3_SHAPED;
    const viaOnnx = await q.bundle('qwen-onnx', { config: onnxCfg, presets: ['eager'] });
    const viaFile = await q.bundle('qwen-file', { config: { ...QWEN3_SHAPED, embedTable: { format: 'raw', dtype: 'float32' } }, presets: ['eager'] });
    const run = async (d: string) => {
      const e = await Engine.open(d);
      try {
        return await e.synthesize(request('hello there', { speaker: 'vivian' }));
      } finally {
        await e.close();
      }
    };
    const [a, b] = [await run(viaOnnx), await run(viaFile)];
    expect(bytes(b.codes).equals(bytes(a.codes))).toBe(true);
    expect(bytes(b.audio).equals(bytes(a.audio))).toBe(true);
  });
});
