import { describe, expect, it } from 'vitest';
import { Sampler } from '../../../../electron/common/sampling/sample-token.js';
import { GREEDY, type SamplingParams } from '../../../../electron/common/sampling/types.js';
import { uniform } from '../../../../electron/common/sampling/uniform.js';
import { loadAddon, type NativeTesting } from '../../../../electron/engine/native/native-addon.js';
import { buildNativeAddon } from './native-build.js';

// One pick by SamplePickK (best-id reduce, radix-select cuts, draw; one block; native/src/
// sampler-probe.cu), emulated in the device's reduce order, against sample-token.ts's Sampler on a
// talker-sized vocabulary with what the demo bundle never produces: ties across the reduce's thread
// strides, -0 beside +0, -Infinity, NaNs, a masked id. The expected id is the TypeScript's, exactly.
const build = buildNativeAddon();
const V = 3072;

/** Logits on a coarse grid (0.25 steps in [-2, 3]): ~20 distinct values, so most ids tie with others. */
function tiedLogits(salt: number): Float32Array {
  return Float32Array.from({ length: V }, (_, i) => Math.round(uniform(salt, i, 1) * 20) / 4 - 2);
}

const sample = (s: Partial<SamplingParams>): SamplingParams => ({ ...GREEDY, mode: 'sample', ...s });
const settings: [string, SamplingParams][] = [
  ['T=1', sample({})],
  ['T=0.7 top-k 50', sample({ temperature: 0.7, topK: 50 })],
  ['T=1.2 top-p 0.9', sample({ temperature: 1.2, topP: 0.9 })],
  ['top-k 1', sample({ topK: 1 })],
  ['T=0.9 top-k 40 top-p 0.95 penalty 1.3', sample({ temperature: 0.9, topK: 40, topP: 0.95, repetitionPenalty: 1.3 })],
  ['greedy penalty 1.5', { ...GREEDY, repetitionPenalty: 1.5 }],
];

if (build.nvccMissing) {
  describe('sampling kernels (nvcc missing here)', () => {
    it('the addon is reported as not built', () => {
      expect(loadAddon()).toEqual(expect.objectContaining({ ok: false }));
    });
  });
} else describe('sampling kernels, one pick, CPU emulation vs sample-token.ts', () => {
  const testing = (): NativeTesting => {
    expect(build.status, build.log).toBe(0);
    const loaded = loadAddon();
    if (!loaded.ok) throw new Error(loaded.reason);
    return loaded.addon.testing;
  };
  const sampler = new Sampler();
  /** The engine masks a skipped id (EOS) to -Infinity before the Sampler sees the row. */
  const reference = (logits: Float32Array, skip: number, p: SamplingParams, seed: number, step: number, cb: number, history: Int32Array) => {
    const row = Float32Array.from(logits);
    if (skip >= 0) row[skip] = -Infinity;
    return sampler.sample(row, p, uniform(seed, step, cb), history);
  };

  it.each(settings)('%s: 40 draws on tied logits with a history and a masked id pick the same ids', (_label, p) => {
    const t = testing();
    const logits = tiedLogits(5);
    logits[7] = -0;
    logits[300] = 0;
    logits[1000] = -Infinity;
    const picked: number[] = [];
    const expected: number[] = [];
    for (let draw = 0; draw < 40; draw++) {
      const history = Int32Array.from({ length: 20 }, (_, h) => Math.floor(uniform(draw, h, 2) * V));
      const seed = 1000 + draw;
      const skip = draw % 2 ? V - 1 : -1;
      picked.push(t.pick(logits, skip, { ...p, seed }, 2 + draw, draw % 8, history));
      expected.push(reference(logits, skip, p, seed, 2 + draw, draw % 8, history));
    }
    expect(picked).toEqual(expected);
    if (p.mode === 'sample' && p.topK !== 1) expect(new Set(picked).size).toBeGreaterThan(1); // the draws do vary
  });

  it('the best id is the first of the largest value wherever the ties fall among the 256 reduce threads', () => {
    const t = testing();
    const greedy = { ...GREEDY, seed: 0 };
    for (const ids of [[2999, 5], [256, 512], [255, 257, 1], [3071, 3070]]) {
      const logits = new Float32Array(V).fill(-1);
      for (const id of ids) logits[id] = 2.5;
      expect(t.pick(logits, -1, greedy, 2, 0, new Int32Array(0))).toBe(Math.min(...ids));
    }
    // -1 below id 17, -0 at 17 and 900, +0 elsewhere: JS's > ranks -0 and +0 equal, so the first (17) wins.
    const zeros = new Float32Array(V);
    zeros.fill(-1, 0, 17);
    zeros[17] = -0;
    zeros[900] = -0;
    expect(reference(zeros, -1, GREEDY, 0, 2, 0, new Int32Array(0))).toBe(17);
    expect(t.pick(zeros, -1, greedy, 2, 0, new Int32Array(0))).toBe(17);
    expect(t.pick(zeros, 17, greedy, 2, 0, new Int32Array(0))).toBe(18);
    const allMasked = new Float32Array(V).fill(-Infinity);
    expect(t.pick(allMasked, -1, greedy, 2, 0, new Int32Array(0))).toBe(0);
  });

  it('a NaN anywhere makes the pick the first NaN id, greedy and sampled (torch.argmax; sample-token.ts)', () => {
    const t = testing();
    const logits = tiedLogits(9);
    logits[2900] = NaN;
    logits[2000] = NaN;
    for (const [, p] of settings) {
      expect(t.pick(logits, -1, { ...p, seed: 3 }, 2, 1, new Int32Array(0))).toBe(2000);
      expect(reference(logits, -1, p, 3, 2, 1, new Int32Array(0))).toBe(2000);
    }
  });
});
