import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, InputError, ProfileError } from '../../../electron/common/errors.js';
import { parseProfile } from '../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import { Engine } from '../../../electron/engine/engine.js';
import { loadNativeBackend } from '../../../electron/engine/native/native-backend.js';
import type { SynthesisResult } from '../../../electron/engine/types.js';
import { demoEngine } from './demo-bundle.js';

// One demo bundle and one Engine for the whole file (sessions are reused across calls).
const TEXT = 'Hello world, this is a parity test.';
let dir: string;
let engine: Engine;
let dispose: (() => Promise<void>) | undefined;
const cache = new Map<string, SynthesisResult>();

async function synth(profile: string, text = TEXT, seed = 1): Promise<SynthesisResult> {
  const key = `${profile}|${text}|${seed}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = await engine.synthesize({ text, profile: parseProfile(profile), seed, sampling: GREEDY });
  cache.set(key, r);
  return r;
}

const maxAbs = (a: Float32Array, b: Float32Array): number => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const bytes = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

beforeAll(async () => {
  ({ dir, engine, dispose } = await demoEngine('engine-test-'));
});
afterAll(() => dispose?.());

describe('Engine on the demo bundle', () => {
  it('renders 35 characters as round(35 × 0.9) = 32 frames of 1920 samples at 24 kHz', async () => {
    const r = await synth('eager');
    expect(r.frames).toBe(32);
    expect(r.q).toBe(8);
    expect(r.audio.length).toBe(32 * 1920);
    expect(r.codes.length).toBe(32 * 8);
    expect(r.steps.map((s) => s.step)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(r.numerics.nan).toEqual({ talker: 0, codePredictor: 0, vocoder: 0 });
    expect(r.executionProvider).toBe('cpu');
    expect(r.fallback).toBeUndefined();
    expect(Math.max(...r.audio.map(Math.abs))).toBeGreaterThan(0.05);
  });

  it('eager twice and a fresh engine: bit-identical audio and codes', async () => {
    const a = await synth('eager');
    const b = await engine.synthesize({ text: TEXT, profile: parseProfile('eager'), seed: 1, sampling: GREEDY });
    expect(bytes(b.audio).equals(bytes(a.audio))).toBe(true);
    expect(Array.from(b.codes)).toEqual(Array.from(a.codes));
    const other = await Engine.open(dir);
    try {
      const c = await other.synthesize({ text: TEXT, profile: parseProfile('eager'), seed: 1, sampling: GREEDY });
      expect(bytes(c.audio).equals(bytes(a.audio))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('seeded sampling: same seed gives the same codes, another seed other codes', async () => {
    const sampling = { mode: 'sample' as const, temperature: 1, topK: 20, topP: 0.95, repetitionPenalty: 1.1 };
    const run = (seed: number) => engine.synthesize({ text: 'abc def ghi', profile: parseProfile('eager'), seed, sampling });
    const [a, b, c] = [await run(5), await run(5), await run(6)];
    expect(Array.from(b.codes)).toEqual(Array.from(a.codes));
    expect(Array.from(c.codes)).not.toEqual(Array.from(a.codes));
  });

  it('graph vs graph,vocoder=stream: same codes, audio within 1e-4', async () => {
    const full = await synth('graph');
    const stream = await synth('graph,vocoder=stream');
    expect(Array.from(stream.codes)).toEqual(Array.from(full.codes));
    expect(maxAbs(stream.audio, full.audio)).toBeLessThan(1e-4);
  });

  it('eager and graph run different graphs but make the same codes here (greedy)', async () => {
    const e = await synth('eager');
    const g = await synth('graph');
    expect(Array.from(g.codes)).toEqual(Array.from(e.codes));
    // Honest record, not a requirement: their logits differ only by float rounding.
    expect(Math.abs(g.steps[5].logits.mean - e.steps[5].logits.mean)).toBeLessThan(1e-4);
  });

  it('ep=cuda without CUDA: runs on CPU and says why', async () => {
    const r = await synth('eager,ep=cuda');
    expect(r.executionProvider).toBe('cpu');
    expect(r.fallback).toMatch(/CUDA/);
    expect(r.fallback?.length).toBeGreaterThan(20);
    expect(bytes(r.audio).equals(bytes((await synth('eager')).audio))).toBe(true);
  });

  it('backend=native without a usable GPU is refused with the reason (never a silent fallback)', async () => {
    const native = loadNativeBackend();
    if (native.ok) {
      // A GPU machine with the addon built: native runs (its numerics are checked in test/unit/engine/native).
      await expect(synth('eager,backend=native')).resolves.toMatchObject({ executionProvider: 'cuda' });
      return;
    }
    await expect(synth('eager,backend=native')).rejects.toThrow(ProfileError);
    await expect(synth('eager,backend=native')).rejects.toThrow(/native CUDA addon/);
  });

  it('empty text and text over the 128-byte limit are InputErrors', async () => {
    await expect(synth('eager', '')).rejects.toThrow(InputError);
    await expect(synth('eager', '   ')).rejects.toThrow(/empty/);
    await expect(synth('eager', 'x'.repeat(129))).rejects.toThrow(/129 UTF-8 bytes, over this bundle's limit of 128/);
    // 65 two-byte characters are 130 bytes: the limit counts bytes, not characters.
    await expect(synth('eager', 'é'.repeat(65))).rejects.toThrow(/130 UTF-8 bytes, over this bundle's limit of 128/);
    // 64 two-byte characters are 128 bytes: accepted, and round(64 × 0.9) = 58 frames.
    expect((await synth('eager', 'é'.repeat(64))).frames).toBe(58);
  });

  it('the longest text gets all its frames and fits the graph talker buffer: 128 ASCII bytes, round(128 × 0.9) = 115 frames', async () => {
    const r = await synth('graph', 'x'.repeat(128));
    expect(r.frames).toBe(115);
    expect(r.audio.length).toBe(115 * 1920);
    // BOS + 128 text positions + 115 decode frames = 244 ≤ talker.maxPositions 256.
    expect(engine.info().talker.maxPositions).toBe(256);
  });

  it('a 40-character prompt gives round(40 × 0.9) = 36 frames = 36 / 12.5 Hz = 2.88 s of audio', async () => {
    const r = await synth('graph', 'Hello world, this is a parity test. 1234');
    expect(r.audio.length / 24000).toBeCloseTo(2.88, 9);
  });

  it('cancellation stops within one step', async () => {
    const controller = new AbortController();
    let last = 0;
    const job = engine.synthesize(
      { text: TEXT, profile: parseProfile('eager'), seed: 1, sampling: GREEDY },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.stage !== 'talker') return;
          last = p.step;
          if (p.step === 3) controller.abort();
        },
      },
    );
    await expect(job).rejects.toThrow(CancelledError);
    expect(last).toBe(3);
  });
});
