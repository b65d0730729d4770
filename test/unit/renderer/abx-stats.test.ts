import { describe, expect, it } from 'vitest';
import { abxTake, binomialPGuess, binomialTail, levelGivesAway, pGuessText } from '../../../renderer/src/lib/abx-stats.js';

// P(≥k of 5) under guessing = Σ_{j≥k} C(5,j)/32 with C(5,j) = 1 5 10 10 5 1 (Pascal's triangle), by hand:
// k = 0: 32/32, 1: 31/32, 2: 26/32 = 13/16, 3: 16/32 = 1/2, 4: 6/32 = 3/16, 5: 1/32. Literals, not recomputed here.
const TAIL_OF_5: { num: bigint; den: bigint; text: string }[] = [
  { num: 1n, den: 1n, text: '= 1' },
  { num: 31n, den: 32n, text: '= 31/32 = 0.96875' },
  { num: 13n, den: 16n, text: '= 13/16 = 0.8125' },
  { num: 1n, den: 2n, text: '= 1/2 = 0.5' },
  { num: 3n, den: 16n, text: '= 3/16 = 0.1875' },
  { num: 1n, den: 32n, text: '= 1/32 = 0.03125' },
];

describe('ABX statistics (pure)', () => {
  it('n = 5: every k of 5 gives the hand-computed tail, its exact decimal and text', () => {
    TAIL_OF_5.forEach(({ num, den, text }, k) => {
      expect(binomialTail(k, 5), `k = ${k}`).toEqual({ num, den });
      // The fractions are dyadic, so the double is exact: no tolerance.
      expect(binomialPGuess(k, 5), `k = ${k}`).toBe(Number(num) / Number(den));
      expect(pGuessText(k, 5), `k = ${k}`).toBe(text);
    });
  });

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

  it('the tail is an exact fraction in lowest terms (integers, no floating point)', () => {
    // n = 5, 1 correct: (5 + 10 + 10 + 5 + 1) / 32 = 31/32.
    expect(binomialTail(1, 5)).toEqual({ num: 31n, den: 32n });
    // n = 5, 3 correct: (10 + 5 + 1) / 32 = 16/32 = 1/2.
    expect(binomialTail(3, 5)).toEqual({ num: 1n, den: 2n });
    expect(binomialTail(12, 16)).toEqual({ num: 2517n, den: 65536n });
    expect(binomialTail(0, 5)).toEqual({ num: 1n, den: 1n });
    expect(binomialTail(6, 5)).toEqual({ num: 0n, den: 1n });
    // 2000 of 2000: 2^-2000 is below the smallest double (2^-1074), so the number is 0 but the fraction is exact.
    expect(binomialTail(2000, 2000)).toEqual({ num: 1n, den: 2n ** 2000n });
    expect(binomialPGuess(2000, 2000)).toBe(0);
    // 1 of 2000: 1 − 2^-2000, which rounds to 1 in a double (2^2000 itself would overflow one).
    expect(binomialPGuess(1, 2000)).toBe(1);
  });

  it('p(guessing) is shown exactly when short, else rounded half-up to 4 significant digits', () => {
    expect(pGuessText(1, 5)).toBe('= 31/32 = 0.96875'); // was shown 0.9687: the float sum fell just under 31/32
    expect(pGuessText(5, 5)).toBe('= 1/32 = 0.03125');
    expect(pGuessText(3, 5)).toBe('= 1/2 = 0.5');
    expect(pGuessText(0, 5)).toBe('= 1');
    // 2517/65536 = 0.0384063720703125 exactly (65536 = 2^16, so 16 decimals) -> 0.03841.
    expect(pGuessText(12, 16)).toBe('= 2517/65536 ≈ 0.03841');
    // 9 of 10: (10 + 1)/1024 = 0.0107421875 -> 0.01074.
    expect(pGuessText(9, 10)).toBe('= 11/1024 ≈ 0.01074');
    // 1 of 20: 1048575/1048576 = 0.99999904632568359375 rounds up to 1.000 (the carry moves the exponent).
    expect(pGuessText(1, 20)).toBe('= 1048575/1048576 ≈ 1.000');
    // 100 of 100: 2^-100 = 7.888609052210118e-31; the fraction (den 2^100) is too long to show.
    expect(pGuessText(100, 100)).toBe('≈ 7.889e-31');
    // 16 of 16: 1/65536 = 0.0000152587890625 -> under 0.0001, scientific.
    expect(pGuessText(16, 16)).toBe('= 1/65536 ≈ 1.526e-5');
    // 2^-2000 = 8.7098098162…e-603 (Python: Decimal(1) / Decimal(2) ** 2000), far under a double's range.
    expect(pGuessText(2000, 2000)).toBe('≈ 8.710e-603');
  });

  it('stays finite for long sessions (exact BigInt coefficients, the sum rounded to a double once)', () => {
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

describe('ABX level warning', () => {
  it('warns above 0.5 LU with Match loudness off: the README pair’s −1.94 LU gives X away', () => {
    expect(levelGivesAway(-1.94, false)).toBe(true);
    expect(levelGivesAway(-1.94, true)).toBe(false);
    expect(levelGivesAway(0.001, false)).toBe(false);
    expect(levelGivesAway(0.5, false)).toBe(false);
    expect(levelGivesAway(NaN, false)).toBe(false);
  });
});
