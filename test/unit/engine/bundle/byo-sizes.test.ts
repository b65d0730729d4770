import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { Engine } from '../../../../electron/engine/engine.js';
import type { SynthesisResult } from '../../../../electron/engine/types.js';
import { bundleRoot, SEED, SMALL } from './small-bundle.js';

// Bundles built by the project's own builder with sizes unlike the demo's (SMALL), standing in for a
// user's export: one with eager and graph exports, one with the eager fp32 export only.
let root: Awaited<ReturnType<typeof bundleRoot>>;
let both: Engine;
let eagerOnly: Engine;
const TEXT = 'hello there'; // 11 bytes -> round(11 × 0.5) = 6 frames (Math.round rounds 5.5 up)
const SAMPLING = { mode: 'sample' as const, temperature: 1, topK: 10, topP: 0.9, repetitionPenalty: 1 };

const bytes = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const synth = (e: Engine, profile: string, sampling: typeof SAMPLING | typeof GREEDY = SAMPLING): Promise<SynthesisResult> =>
  e.synthesize({ text: TEXT, profile: parseProfile(profile), seed: 3, sampling });

beforeAll(async () => {
  root = await bundleRoot('byo-sizes-');
  both = await Engine.open(await root.bundle('both', { precisions: ['fp32'] }));
  eagerOnly = await Engine.open(await root.bundle('eager-only', { presets: ['eager'], precisions: ['fp32'] }));
});
afterAll(async () => {
  await both?.close();
  await eagerOnly?.close();
  await root?.dispose();
});

describe('bundles of other sizes, built by the demo builder from another config', () => {
  it('the builder is pure for another config too: same options, same bytes', () => {
    const sha = (m: Map<string, Uint8Array>): string => {
      const h = createHash('sha256');
      for (const [name, b] of m) h.update(name).update(b);
      return h.digest('hex');
    };
    const opts = { config: SMALL, faultVariants: false };
    expect(sha(demoBundleFiles(SEED, opts))).toBe(sha(demoBundleFiles(SEED, opts)));
    expect(sha(demoBundleFiles(SEED, opts))).not.toBe(sha(demoBundleFiles(SEED + 1, opts)));
  });

  it('loads with its own sizes and files', () => {
    const info = both.info();
    expect([info.sampleRate, info.frameRate, info.codebooks, info.codebookSize]).toEqual([16000, 50, 4, 32]);
    expect(info.talker).toMatchObject({ layers: 2, heads: 2, kvHeads: 1, headDim: 8, hidden: 32, maxPositions: 64 });
    expect(info.codePredictor).toMatchObject({ layers: 3, heads: 4, kvHeads: 4, headDim: 12 });
    expect(info.talker.exports.sort()).toEqual(['eager-fp32', 'graph-fp32']);
    expect(eagerOnly.info().files.map((f) => f.file).sort()).toEqual(['code-predictor.eager.fp32.onnx', 'embed.onnx', 'talker.eager.fp32.onnx', 'vocoder.fp32.onnx']);
  });

  it('synthesizes frames × hop samples at its own rate, deterministically (same request, same bytes)', async () => {
    const a = await synth(both, 'eager');
    expect(a.frames).toBe(6);
    expect(a.q).toBe(4);
    expect(a.sampleRate).toBe(16000);
    expect(a.audio.length).toBe(6 * 320);
    expect(a.numerics.nan).toEqual({ talker: 0, codePredictor: 0, vocoder: 0 });
    for (const c of a.codes) expect(c).toBeLessThan(32); // codes of a 32-code codebook; EOS (32) never sampled
    expect(Math.max(...a.audio.map(Math.abs))).toBeGreaterThan(0.01); // harmonic amplitudes sum to ≥ 0.3·sigmoid: not silence
    const b = await synth(both, 'eager');
    expect(bytes(b.audio).equals(bytes(a.audio))).toBe(true);
    // The eager-only bundle holds the same weights (same seed, same config): same codes and audio.
    const c = await synth(eagerOnly, 'eager');
    expect(Array.from(c.codes)).toEqual(Array.from(a.codes));
    expect(bytes(c.audio).equals(bytes(a.audio))).toBe(true);
  });

  it('graph (static KV buffers of 64 rows) and vocoder=stream (chunks of 4, left context 6) run at these sizes', async () => {
    const e = await synth(both, 'eager', GREEDY);
    const g = await synth(both, 'graph', GREEDY);
    const s = await synth(both, 'graph,vocoder=stream', GREEDY);
    expect(g.audio.length).toBe(6 * 320);
    // Same weights, different graphs: greedy codes agree here, as on the demo (engine.test.ts).
    expect(Array.from(g.codes)).toEqual(Array.from(e.codes));
    expect(Array.from(s.codes)).toEqual(Array.from(g.codes));
    // Chunked decode with carried phase vs one decode: float32 rounding only (engine.test.ts uses 1e-4 too).
    expect(s.audio.reduce((m, x, i) => Math.max(m, Math.abs(x - g.audio[i])), 0)).toBeLessThan(1e-4);
  });
});

describe('one export driven both ways: an eager-only bundle', () => {
  it('runs eager, eager,cache=recompute and eager,vocoder=stream over its one dynamic export', async () => {
    const kv = await synth(eagerOnly, 'eager', GREEDY);
    const recompute = await synth(eagerOnly, 'eager,cache=recompute', GREEDY);
    const stream = await synth(eagerOnly, 'eager,vocoder=stream', GREEDY);
    expect(recompute.frames).toBe(kv.frames);
    expect(Array.from(stream.codes)).toEqual(Array.from(kv.codes));
    // recompute re-runs the whole sequence with an empty past: equal in exact arithmetic, so only
    // float rounding can move the logits (seed 002); greedy codes agree at this size.
    expect(Array.from(recompute.codes)).toEqual(Array.from(kv.codes));
  });

  it('graph is refused: names bundle.json, the missing talker.exports["graph-fp32"], what the graph preset needs, the eager file that cannot stand in', async () => {
    const err = (await synth(eagerOnly, 'graph').catch((e: unknown) => e)) as BundleError;
    expect(err).toBeInstanceOf(BundleError);
    expect(err.message).toContain(`${eagerOnly.info().dir}/bundle.json: profile "graph" needs a talker export "graph-fp32" (bundle.json talker.exports["graph-fp32"]), which this bundle does not have; it has: eager-fp32 (talker.eager.fp32.onnx)`);
    // The talker's sizes from bundle.json: kvHeads 1, maxPositions 64, headDim 8.
    expect(err.message).toContain('past_key_values.*/present.* fixed [1, 1, 64, 8] buffers written in place at position_ids, attention_mask [1, 64]');
    expect(err.message).toContain('the eager export talker.eager.fp32.onnx cannot be driven that way');
    expect(err.message).toContain('or run the eager preset (e.g. "eager")');
    // cache=recompute keeps the talker eager, but the code predictor still needs its graph export.
    await expect(synth(eagerOnly, 'graph,cache=recompute')).rejects.toThrow(/needs a code-predictor export "graph-fp32" \(bundle\.json codePredictor\.exports\["graph-fp32"\]\).*\[1, 4, 4, 12\].*e\.g\. "eager,cache=recompute"/);
    await expect(synth(eagerOnly, 'eager,precision=fp16')).rejects.toThrow(/needs a talker export "eager-fp16" .* it has: eager-fp32 \(talker\.eager\.fp32\.onnx\)$/);
  });
});
