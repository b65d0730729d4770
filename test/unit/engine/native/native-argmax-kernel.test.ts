import { describe, expect, it } from 'vitest';
import { Sampler } from '../../../../electron/common/sampling/sample-token.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { uniform } from '../../../../electron/common/sampling/uniform.js';
import { loadAddon, type NativeTesting } from '../../../../electron/engine/native/native-addon.js';
import { buildNativeAddon } from './native-build.js';

// The greedy pick kernel (ArgmaxK, one-block reduce by pick-rank.cuh's firstBest; testing.argmax runs it
// as a greedy session launches it), emulated in the device's reduce order (256 thread strides, then the
// tree), against what the ORT backend does for a greedy pick (synthesize.ts): copy the row, set EOS to
// -Infinity, Sampler.sample(row, GREEDY). The expected id is always the TypeScript's, exactly.
const build = buildNativeAddon();
const V = 3072;
const THREADS = 256; // kReduceThreads (native/src/executor.h): ids t, t + 256, ... fold in thread t

/** Logits on a coarse grid (0.25 steps in [-2, 3]): ~20 distinct values, so most ids tie with others. */
function tiedLogits(salt: number): Float32Array {
  return Float32Array.from({ length: V }, (_, i) => Math.round(uniform(salt, i, 1) * 20) / 4 - 2);
}

const sampler = new Sampler();
/** The ORT backend's greedy pick: EOS (skip >= 0) masked to -Infinity, then Sampler.sample in greedy mode. */
function reference(logits: Float32Array, skip: number): number {
  const row = Float32Array.from(logits);
  if (skip >= 0) row[skip] = -Infinity;
  return sampler.sample(row, GREEDY, 0);
}

if (build.nvccMissing) {
  describe('greedy argmax kernel (nvcc missing here)', () => {
    it('the addon is reported as not built', () => {
      expect(loadAddon()).toEqual(expect.objectContaining({ ok: false }));
    });
  });
} else describe('greedy argmax kernel, CPU emulation vs sample-token.ts greedy', () => {
  const testing = (): NativeTesting => {
    expect(build.status, build.log).toBe(0);
    const loaded = loadAddon();
    if (!loaded.ok) throw new Error(loaded.reason);
    return loaded.addon.testing;
  };
  /** The kernel's id, which must also be what the sampled pick's best-id reduce picks (one shared rule). */
  const argmax = (t: NativeTesting, logits: Float32Array, skip: number): number => {
    const id = t.argmax(logits, skip);
    expect(t.pick(logits, skip, { ...GREEDY, seed: 0 }, 2, 0, new Int32Array(0))).toBe(id);
    return id;
  };

  it('the first id of the largest value wherever the ties fall among the reduce threads', () => {
    const t = testing();
    // Pairs in one thread (5, 5 + 256·k), in two threads folded early (255, 257) or last in the tree (0, 128).
    for (const ids of [[2999, 5], [5 + 11 * THREADS, 5], [256, 512], [255, 257, 1], [3071, 3070], [128, 0], [THREADS - 1, THREADS]]) {
      const logits = new Float32Array(V).fill(-1);
      for (const id of ids) logits[id] = 2.5;
      expect(reference(logits, -1)).toBe(Math.min(...ids));
      expect(argmax(t, logits, -1)).toBe(Math.min(...ids));
    }
  });

  it('tied rows with -0/+0, -Infinity, NaNs and a masked EOS: the same id as the TypeScript on 48 rows', () => {
    const t = testing();
    const picked: number[] = [];
    const expected: number[] = [];
    for (let salt = 0; salt < 48; salt++) {
      const logits = tiedLogits(salt);
      logits[7 + salt] = -0;
      logits[300 + salt] = 0;
      logits[1000 + salt] = -Infinity;
      if (salt % 3 === 0) logits[Math.floor(uniform(salt, 0, 3) * V)] = NaN;
      if (salt % 6 === 0) logits[Math.floor(uniform(salt, 1, 3) * V)] = NaN;
      // EOS at the top of the range (the demo's codebookSize), at 0, mid-row, or none; sometimes on a best id.
      const skip = [V - 1, 0, 1500, -1][salt % 4];
      if (salt % 5 === 0 && skip >= 0) logits[skip] = 3;
      picked.push(argmax(t, logits, skip));
      expected.push(reference(logits, skip));
    }
    expect(picked).toEqual(expected);
    expect(new Set(picked).size).toBeGreaterThan(5); // the rows do differ
  });

  it('-0 and +0 rank equal (JavaScript\'s >): the first zero wins, and the next one when EOS masks it', () => {
    const t = testing();
    const zeros = new Float32Array(V);
    zeros.fill(-1, 0, 17);
    zeros[17] = -0;
    zeros[900] = -0;
    expect(reference(zeros, -1)).toBe(17);
    expect(argmax(t, zeros, -1)).toBe(17);
    expect(reference(zeros, 17)).toBe(18);
    expect(argmax(t, zeros, 17)).toBe(18);
    const negFirst = new Float32Array(V).fill(-2);
    negFirst[1000] = 0;
    negFirst[600] = -0;
    expect(argmax(t, negFirst, -1)).toBe(reference(negFirst, -1));
    expect(argmax(t, negFirst, -1)).toBe(600);
  });

  it('EOS masking: a masked id is -Infinity, not skipped (an all -Infinity row picks id 0 even when EOS is 0)', () => {
    const t = testing();
    const logits = tiedLogits(77);
    logits[V - 1] = 100; // EOS holds the largest logit: masked, the best other id wins
    expect(argmax(t, logits, V - 1)).toBe(reference(logits, V - 1));
    expect(argmax(t, logits, V - 1)).not.toBe(V - 1);
    const allInf = new Float32Array(V).fill(-Infinity);
    expect(reference(allInf, -1)).toBe(0);
    expect(argmax(t, allInf, -1)).toBe(0);
    expect(argmax(t, allInf, 5)).toBe(0);
    // sample-token.ts sees EOS as one more -Infinity, so with every id at -Infinity the first id wins, EOS or not.
    expect(reference(allInf, 0)).toBe(0);
    expect(argmax(t, allInf, 0)).toBe(0);
    const oneFinite = new Float32Array(V).fill(-Infinity);
    oneFinite[2047] = -3e38;
    expect(argmax(t, oneFinite, 0)).toBe(2047);
  });

  it('NaN: the first NaN id wins over any value, a NaN under the EOS mask does not count', () => {
    const t = testing();
    const logits = tiedLogits(9);
    logits[2900] = NaN;
    logits[2000] = NaN;
    logits[100] = Infinity;
    expect(reference(logits, -1)).toBe(2000);
    expect(argmax(t, logits, -1)).toBe(2000);
    expect(argmax(t, logits, 2000)).toBe(2900); // masked to -Infinity, as the engine does before the Sampler
    expect(reference(logits, 2000)).toBe(2900);
    const oneNaN = new Float32Array(V).fill(-Infinity);
    oneNaN[3071] = NaN;
    expect(argmax(t, oneNaN, -1)).toBe(3071);
    expect(argmax(t, oneNaN, 3071)).toBe(reference(oneNaN, 3071));
    expect(argmax(t, oneNaN, 3071)).toBe(0);
  });

  it('small vocabularies (fewer ids than reduce threads) and bad input', () => {
    const t = testing();
    expect(argmax(t, Float32Array.of(0.5), -1)).toBe(0);
    expect(argmax(t, Float32Array.of(0.5), 0)).toBe(0); // the only id, masked: still the first -Infinity
    expect(argmax(t, Float32Array.of(1, 3, 3, -0, 0), -1)).toBe(1);
    expect(argmax(t, Float32Array.of(1, 3, 3, -0, 0), 1)).toBe(2);
    expect(() => t.argmax(new Float32Array(0), -1)).toThrow('greedyPick: empty logits');
    expect(() => t.argmax(new Float64Array(4) as unknown as Float32Array, -1)).toThrow('argmax: expected logits Float32Array');
  });
});
