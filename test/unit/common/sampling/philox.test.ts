import { describe, expect, it } from 'vitest';
import { philox4x32 } from '../../../../electron/common/sampling/philox.js';
import { InputError } from '../../../../electron/common/errors.js';
import { checkSeed, uniform } from '../../../../electron/common/sampling/uniform.js';

// Known answers: Random123 1.14 tests/kat_vectors, the three "philox4x32 10" lines
// (columns: counter[4], key[2], expected[4]).
const KAT: [number[], number[], number[]][] = [
  [[0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]],
  [[0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], [0xffffffff, 0xffffffff], [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]],
  [[0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0], [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]],
];

describe('philox4x32-10', () => {
  it.each(KAT)('matches the Random123 known answer for counter %j', (c, k, expected) => {
    expect([...philox4x32(c[0], c[1], c[2], c[3], k[0], k[1])]).toEqual(expected);
  });
});

describe('uniform', () => {
  it('is a pure function of (seed, step, codebook, draw)', () => {
    expect(uniform(42, 2, 0, 0)).toBe(uniform(42, 2, 0, 0));
    const others = [uniform(43, 2, 0, 0), uniform(42, 3, 0, 0), uniform(42, 2, 1, 0), uniform(42, 2, 0, 1), uniform(42 + 2 ** 32, 2, 0, 0)];
    for (const o of others) expect(o).not.toBe(uniform(42, 2, 0, 0));
  });

  it('is the 53-bit fraction of the first two Philox words (seed 0, counter 0 → KAT line 1)', () => {
    // (0x6627e8d5 >>> 5) * 2^26 + (0xe169c58d >>> 6), over 2^53.
    expect(uniform(0, 0, 0, 0)).toBe(((0x6627e8d5 >>> 5) * 2 ** 26 + (0xe169c58d >>> 6)) / 2 ** 53);
  });

  it('stays in [0, 1) with mean 1/2 and variance 1/12 over 20 000 draws', () => {
    let sum = 0;
    let sq = 0;
    let lo = 1;
    let hi = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const u = uniform(7, 1 + (i % 500), i % 8, Math.floor(i / 4000));
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
      sum += u;
      sq += u * u;
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    const mean = sum / n;
    // Standard error of the mean is sqrt(1/12/n) ≈ 0.002; allow 5 of them.
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(sq / n - mean * mean - 1 / 12)).toBeLessThan(0.005);
  });

  it('refuses a seed that is not a safe non-negative integer', () => {
    expect(() => uniform(-1, 1, 0)).toThrow(/seed/);
    expect(() => uniform(1.5, 1, 0)).toThrow(/seed/);
  });
});

describe('checkSeed', () => {
  it('accepts integers in [0, 2^53) and names the bad seed otherwise', () => {
    for (const ok of [0, 1, 2 ** 32, Number.MAX_SAFE_INTEGER]) expect(() => checkSeed(ok)).not.toThrow();
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, Infinity]) {
      expect(() => checkSeed(bad)).toThrow(InputError);
      expect(() => checkSeed(bad)).toThrow(`seed: expected an integer in [0, 2^53), found ${bad}`);
    }
  });
});
