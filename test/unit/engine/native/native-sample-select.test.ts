import { describe, expect, it } from 'vitest';
import { Sampler } from '../../../../electron/common/sampling/sample-token.js';
import { GREEDY, type SamplingParams } from '../../../../electron/common/sampling/types.js';
import { uniform } from '../../../../electron/common/sampling/uniform.js';
import { loadAddon, type NativeTesting } from '../../../../electron/engine/native/native-addon.js';
import { definedPick } from './defined-pick.js';
import { buildNativeAddon } from './native-build.js';

// The native sampled pick (radix select, integer masses; native/src/sample-kernels.cuh), emulated, on many
// seeded rows: it must choose exactly what the documented definition (defined-pick.ts, a plain sort) chooses,
// and that must be what today's sampler (sample-token.ts: heap, float64 sums) chooses, except where a
// draw or the top-p cut falls within float64 rounding of a boundary (docs/native-backend.md, "the same draw").
const build = buildNativeAddon();
const sample = (s: Partial<SamplingParams>): SamplingParams => ({ ...GREEDY, mode: 'sample', ...s });

/** Row generators: spread values, a coarse grid (many ties), three values (huge ties), float32 neighbours (near-ties). */
const rows: Record<string, (V: number, salt: number) => Float32Array> = {
  spread: (V, salt) => Float32Array.from({ length: V }, (_, i) => 4 * (uniform(salt, i, 1) + uniform(salt, i, 2) + uniform(salt, i, 3) - 1.5)),
  grid: (V, salt) => Float32Array.from({ length: V }, (_, i) => Math.round(uniform(salt, i, 1) * 20) / 4 - 2),
  three: (V, salt) => Float32Array.from({ length: V }, (_, i) => Math.floor(uniform(salt, i, 1) * 3)),
  neighbours: (V, salt) => {
    const a = Math.fround(1.3);
    const up = new Float32Array(new Uint32Array([new Uint32Array(new Float32Array([a]).buffer)[0] + 1]).buffer)[0];
    return Float32Array.from({ length: V }, (_, i) => (uniform(salt, i, 1) < 0.5 ? a : up) - (uniform(salt, i, 2) < 0.9 ? 2 : 0));
  },
};

function settingsFor(salt: number, V: number): SamplingParams {
  const pickOf = <T>(options: T[], stream: number): T => options[Math.floor(uniform(salt, 0, 10 + stream) * options.length)];
  return sample({
    temperature: pickOf([0.3, 0.7, 1, 1.5, 3], 0),
    topK: pickOf([0, 1, 2, 5, 40, V - 1, V, V + 3], 1),
    topP: pickOf([1, 1, 0.3, 0.5, 0.9, 0.95, 0.999], 2),
    repetitionPenalty: pickOf([1, 1, 1.3, 0.8], 3),
  });
}

if (build.nvccMissing) {
  describe('native sampled pick (nvcc missing here)', () => {
    it('the addon is reported as not built', () => {
      expect(loadAddon()).toEqual(expect.objectContaining({ ok: false }));
    });
  });
} else describe('native sampled pick, CPU emulation: the defined draw, and today\'s sampler', () => {
  const testing = (): NativeTesting => {
    expect(build.status, build.log).toBe(0);
    const loaded = loadAddon();
    if (!loaded.ok) throw new Error(loaded.reason);
    return loaded.addon.testing;
  };
  const sampler = new Sampler();

  it.each(Object.keys(rows))('%s rows: 240 seeded rows and settings (V 1 to 3 072) pick what the definition and sample-token.ts pick', (kind) => {
    const t = testing();
    const sizes = [1, 2, 3, 127, 256, 257, 1000, 3072];
    let differsFromToday = 0;
    for (let salt = 0; salt < 240; salt++) {
      const V = sizes[salt % sizes.length];
      const logits = rows[kind](V, salt);
      if (V > 8 && salt % 3 === 0) logits[salt % V] = -Infinity;
      const p = settingsFor(salt, V);
      const history = Int32Array.from({ length: 6 }, (_, h) => Math.floor(uniform(salt, h, 4) * V));
      const skip = salt % 5 === 0 ? V - 1 : -1;
      const [seed, step, cb] = [salt * 7 + 1, 2 + (salt % 50), salt % 8];
      const u = uniform(seed, step, cb);
      const picked = t.pick(logits, skip, { ...p, seed }, step, cb, history);
      expect(picked, `${kind} salt ${salt} V ${V} ${JSON.stringify(p)}`).toBe(definedPick(logits, skip, p, u, history));
      const row = Float32Array.from(logits);
      if (skip >= 0) row[skip] = -Infinity;
      if (sampler.sample(row, p, u, history) !== picked) differsFromToday++;
    }
    expect(differsFromToday).toBe(0);
  });

  it('either side of 256 candidates (ranked by counting, or radix passes): the same picks as the definition and sample-token.ts', () => {
    // V <= 256 ranks every id; above, top-p inside a top-k of <= 256 ranks the top-k ids; otherwise radix select.
    const t = testing();
    const kinds: ((V: number, salt: number) => Float32Array)[] = [
      ...Object.values(rows),
      (V) => new Float32Array(V).fill(0.5), // every id ties
      (V, salt) => Float32Array.from({ length: V }, (_, i) => (uniform(salt, i, 1) < 0.7 ? -Infinity : uniform(salt, i, 2) * 3)),
      (V, salt) => Float32Array.from({ length: V }, (_, i) => (uniform(salt, i, 1) < 0.5 ? -0 : 0) + (i % 7 === 0 ? 1 : 0)),
    ];
    let rowsPicked = 0;
    let differsFromToday = 0;
    for (const V of [200, 255, 256, 257, 1000]) {
      for (const topK of [0, 40, 255, 256, 257]) {
        for (const topP of [1e-9, 0.5, 0.999999, 1]) {
          for (const [n, kind] of kinds.entries()) {
            const salt = V * 7919 + topK * 131 + n * 17 + Math.round(topP * 1e6);
            const logits = kind(V, salt);
            const p = sample({ topK, topP, temperature: [0.4, 1, 2.5][salt % 3], repetitionPenalty: [1, 1.3, 0.8][salt % 3] });
            const history = Int32Array.from({ length: 6 }, (_, h) => Math.floor(uniform(salt, h, 4) * V));
            const skip = salt % 4 === 0 ? 0 : -1;
            const [seed, step, cb] = [salt, 2 + (salt % 50), salt % 8];
            const u = uniform(seed, step, cb);
            const picked = t.pick(logits, skip, { ...p, seed }, step, cb, history);
            expect(picked, `kind ${n} V ${V} ${JSON.stringify(p)}`).toBe(definedPick(logits, skip, p, u, history));
            const row = Float32Array.from(logits);
            if (skip >= 0) row[skip] = -Infinity;
            if (sampler.sample(row, p, u, history) !== picked) differsFromToday++;
            rowsPicked++;
          }
        }
      }
    }
    expect(rowsPicked).toBe(700);
    expect(differsFromToday).toBe(0);
  });

  it('top-k ties at the cut keep the lower ids; a top-p prefix that reaches p exactly stops there', () => {
    const t = testing();
    const V = 3072;
    const tied = new Float32Array(V).fill(-Infinity);
    for (const id of [3000, 17, 900, 256, 5, 2048]) tied[id] = 1.5; // six ids tie at the top, spread over the chunks
    const ids = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const topK = t.pick(tied, -1, { ...sample({ topK: 4 }), seed }, 2, 0, new Int32Array(0));
      expect([5, 17, 256, 900]).toContain(topK);
      // Equal masses: 3 of 6 reach p = 0.5 exactly (3 / 6 of the total), so the nucleus is the 3 lowest ids.
      const topP = t.pick(tied, -1, { ...sample({ topP: 0.5 }), seed }, 2, 0, new Int32Array(0));
      expect([5, 17, 256]).toContain(topP);
      ids.add(topP);
    }
    expect([...ids].sort((a, b) => a - b)).toEqual([5, 17, 256]);
  });

  it('ids one float32 step apart are ranked apart: top-k 1 is the larger, whatever the ids', () => {
    const t = testing();
    const a = Math.fround(0.75);
    const below = new Float32Array(new Uint32Array([new Uint32Array(new Float32Array([a]).buffer)[0] - 1]).buffer)[0];
    for (const [low, high] of [[10, 2000], [2000, 10], [0, 3071], [3071, 0]]) {
      const logits = new Float32Array(3072).fill(-5);
      logits[low] = below;
      logits[high] = a;
      expect(t.pick(logits, -1, { ...sample({ topK: 1, temperature: 0.5 }), seed: 3 }, 2, 0, new Int32Array(0))).toBe(high);
      expect(t.pick(logits, -1, { ...sample({ topK: 2, topP: 0.4 }), seed: 3 }, 2, 0, new Int32Array(0))).toBe(high);
    }
  });

  it('-0 and +0 tie (JavaScript\'s >): at the top-k cut the lower id is kept, whichever zero it holds', () => {
    const t = testing();
    for (const [negative, positive] of [[2, 5], [5, 2]]) {
      const logits = new Float32Array(3072).fill(-3);
      logits[negative] = -0;
      logits[positive] = 0;
      logits[9] = 1; // the best; the zeros compete for the second place
      const kept = new Set<number>();
      for (let seed = 0; seed < 40; seed++) kept.add(t.pick(logits, -1, { ...sample({ topK: 2, temperature: 0.2 }), seed }, 2, 0, new Int32Array(0)));
      expect([...kept].sort((a, b) => a - b)).toEqual([2, 9]);
    }
  });

  it('an infinite largest value (all −∞, a +∞, or a temperature that overflows it) picks what sample-token.ts picks, without crashing', () => {
    // sample-token.ts's sums are NaN then (exp(∞ − ∞)): its top-p keeps every top-k id and its draw walks
    // past them all to the largest; the native pick must do the same, not divide integer masses of NaN.
    const t = testing();
    const kinds: [string, (V: number) => Float32Array, number][] = [
      ['all −∞', (V) => new Float32Array(V).fill(-Infinity), 1],
      ['some +∞', (V) => Float32Array.from({ length: V }, (_, i) => (i % 37 === 5 ? Infinity : (i % 11) - 5)), 0.8],
      ['finite, temperature overflows', (V) => Float32Array.from({ length: V }, (_, i) => (i % 13) + 1), 1e-308],
    ];
    for (const [name, kind, temperature] of kinds) {
      for (const V of [3, 200, 257, 3072]) {
        for (const topK of [0, 2, 40, 300]) {
          for (const topP of [1, 0.5, 1e-9]) {
            const logits = kind(V);
            const p = sample({ topK, topP, temperature });
            const u = uniform(11, 2, 1);
            const picked = t.pick(logits, -1, { ...p, seed: 11 }, 2, 1, new Int32Array(0));
            expect(picked, `${name} V ${V} top-k ${topK} top-p ${topP}`).toBe(sampler.sample(Float32Array.from(logits), p, u));
          }
        }
      }
    }
  });
});
