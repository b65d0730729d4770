import { describe, expect, it } from 'vitest';
import { abxTake, binomialPGuess } from '../../../renderer/src/lib/abx-stats.js';

describe('ABX statistics (pure)', () => {
  it('one-sided binomial p = Σ_{k≥c} C(n,k)/2^n, checked against exact fractions', () => {
    // n = 5: C(5,k) = 1 5 10 10 5 1, total 32.
    expect(binomialPGuess(5, 5)).toBeCloseTo(1 / 32, 12);
    expect(binomialPGuess(4, 5)).toBeCloseTo(6 / 32, 12);
    expect(binomialPGuess(3, 5)).toBeCloseTo(16 / 32, 12);
    expect(binomialPGuess(0, 5)).toBe(1);
    // n = 16, c = 12: (1820 + 560 + 120 + 16 + 1) / 65536 = 2517 / 65536 (the usual ABX table's 0.038).
    expect(binomialPGuess(12, 16)).toBeCloseTo(2517 / 65536, 12);
    expect(binomialPGuess(0, 0)).toBe(1);
  });

  it('stays finite for long sessions (log-space binomial coefficients)', () => {
    const p = binomialPGuess(550, 1000);
    // Normal approximation: z = (549.5 − 500) / √250 = 3.13 → p ≈ 8.7e-4; the exact tail is close to it.
    expect(p).toBeGreaterThan(5e-4);
    expect(p).toBeLessThan(1.2e-3);
  });

  it('X comes from the seed: the same seed gives the same trials, and both takes occur', () => {
    const seq = (seed: number) => Array.from({ length: 200 }, (_, i) => abxTake(seed, i));
    expect(seq(42)).toEqual(seq(42));
    expect(seq(42)).not.toEqual(seq(43));
    const as = seq(7).filter((x) => x === 'A').length;
    // 200 fair draws: A count within 100 ± 4σ (σ = √50 ≈ 7.1).
    expect(Math.abs(as - 100)).toBeLessThan(29);
  });
});
