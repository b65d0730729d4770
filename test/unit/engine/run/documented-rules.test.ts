import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import type { Feeds, OrtSession } from '../../../../electron/engine/ort-session.js';
import type { DecoderRunner } from '../../../../electron/engine/run/decoder-runners.js';
import { noiseRange } from '../../../../electron/engine/run/noise.js';
import { synthesizeWith } from '../../../../electron/engine/synthesize.js';
import { tokenizeText } from '../../../../electron/engine/text-input.js';
import { bundleRoot } from '../bundle/small-bundle.js';
import { planFor } from '../bundle/qwen3-bundle.js';

// The rules docs/bundle-format.md ("Rules the engine applies") states, each checked against a value
// derived here from the documented rule, not from the engine.

let small: Awaited<ReturnType<typeof bundleRoot>>;
let dir: string;
beforeAll(async () => {
  small = await bundleRoot('documented-rules-');
  dir = await small.bundle('small', { presets: ['eager'], precisions: ['fp32'] });
});
afterAll(() => small.dispose());

describe('frame count: round half up of code points × framesPerChar, clamped to [1, maxFrames]', () => {
  it('counts code points and rounds .5 up (SMALL: framesPerChar 0.5, maxFrames 16)', async () => {
    const b = await loadBundle(dir);
    const frames = (text: string): number => tokenizeText(text, b.manifest, b.tokenizer).frames;
    // 3 emoji: 3 code points (6 UTF-16 units, 12 UTF-8 bytes) × 0.5 = 1.5 -> 2 (units would give 3, bytes 6).
    expect(frames('😀😀😀')).toBe(2);
    // 5 × 0.5 = 2.5 -> 3 (round half to even would give 2); 4 × 0.5 = 2.
    expect(frames('abcde')).toBe(3);
    expect(frames('abcd')).toBe(2);
    // 1 × 0.5 = 0.5 -> 1; 32 × 0.5 = 16 = maxFrames.
    expect(frames('a')).toBe(1);
    expect(frames('x'.repeat(32))).toBe(16);
  });
});

describe('vocoder noise formula', () => {
  it('noise[n] = x / 2^31 − 1 with x from the documented xor-shift-multiply on n, as float32', () => {
    // The formula as docs/bundle-format.md writes it, in BigInt arithmetic mod 2^32.
    const M = (1n << 32n) - 1n;
    const documented = (n: number): number => {
      let x = BigInt(n) ^ 0x5bd1e995n;
      x = ((x ^ (x >> 16n)) * 0x7feb352dn) & M;
      x = ((x ^ (x >> 15n)) * 0x846ca68bn) & M;
      x = x ^ (x >> 16n);
      return Math.fround(Number(x) / 2 ** 31 - 1);
    };
    const start = 1920 * 37 - 5;
    const got = noiseRange(start, 64);
    for (let i = 0; i < 64; i++) expect(got[i], `n = ${start + i}`).toBe(documented(start + i));
    expect(noiseRange(0, 1)[0]).toBe(documented(0));
  });
});

describe('code predictor loop and vocoder feeds', () => {
  it('per frame: a 2-position prefill with generation_step 0, then one position per codebook with generation_step j−1', async () => {
    const { plan, close } = await planFor(dir);
    const calls: { n: number; step: bigint }[] = [];
    const inner = plan.codePredictor as DecoderRunner;
    plan.codePredictor = {
      reset: () => inner.reset(),
      forward: (embeds, n, extra) => {
        calls.push({ n, step: (extra?.generation_step.data as BigInt64Array)[0] });
        return inner.forward(embeds, n, extra);
      },
    };
    try {
      const r = await synthesizeWith(plan, { text: 'abcd', profile: parseProfile('eager'), seed: 0, sampling: GREEDY });
      // SMALL: Q = 4, so 3 calls per frame: (2 positions, step 0), (1, 1), (1, 2).
      const frame = [{ n: 2, step: 0n }, { n: 1, step: 1n }, { n: 1, step: 2n }];
      expect(calls).toEqual(Array.from({ length: r.frames }, () => frame).flat());
    } finally {
      await close();
    }
  });

  it('vocoder=full: one run over every frame with context_frames 0 and phase0 0; stream: context min(leftContextFrames, start), phase0 the previous end_phase', async () => {
    for (const profile of ['eager', 'eager,vocoder=stream']) {
      const { plan, close } = await planFor(dir, profile);
      const runs: { frames: number; context: bigint; phase0: number; endPhase: number; noise0: number }[] = [];
      const session = plan.vocoder;
      plan.vocoder = new Proxy(session, {
        get(target, key, receiver) {
          if (key !== 'run') return Reflect.get(target, key, receiver) as unknown;
          return async (feeds: Feeds, fetches?: Feeds) => {
            const out = (await (fetches ? target.run(feeds, fetches) : target.run(feeds))) as Feeds;
            runs.push({
              frames: feeds.audio_codes.dims[1],
              context: (feeds.context_frames.data as BigInt64Array)[0],
              phase0: (feeds.phase0.data as Float64Array)[0],
              endPhase: (out.end_phase.data as Float64Array)[0],
              noise0: (feeds.noise.data as Float32Array)[0],
            });
            return out;
          };
        },
      }) as OrtSession;
      try {
        // 16 frames; SMALL's vocoder: chunkFrames 4, leftContextFrames 6, hop 320.
        const r = await synthesizeWith(plan, { text: 'x'.repeat(32), profile: parseProfile(profile), seed: 0, sampling: GREEDY });
        expect(r.frames).toBe(16);
        if (profile === 'eager') {
          expect(runs).toHaveLength(1);
          expect(runs[0]).toMatchObject({ frames: 16, context: 0n, phase0: 0, noise0: noiseRange(0, 1)[0] });
        } else {
          // Chunks start at 0, 4, 8, 12: context min(6, start) = 0, 4, 6, 6 frames before them.
          expect(runs.map((x) => [x.frames, x.context])).toEqual([[4, 0n], [8, 4n], [10, 6n], [10, 6n]]);
          expect(runs[0].phase0).toBe(0);
          for (let i = 1; i < runs.length; i++) expect(runs[i].phase0).toBe(runs[i - 1].endPhase);
          // Each chunk's noise starts at its first frame's absolute sample (start − context) × hop.
          expect(runs.map((x) => x.noise0)).toEqual([0, 0, 2, 6].map((f) => noiseRange(f * 320, 1)[0]));
        }
      } finally {
        await close();
      }
    }
  });
});
