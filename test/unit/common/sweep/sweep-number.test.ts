import { describe, expect, it } from 'vitest';
import { sweepNumber } from '../../../../electron/common/sweep/sweep-number.js';

describe('sweepNumber', () => {
  it('says "not measured" for NaN (two ungated takes: ΔLU = −∞ − −∞), never prints NaN', () => {
    expect(sweepNumber(Number.NEGATIVE_INFINITY - Number.NEGATIVE_INFINITY, 3)).toBe('not measured');
  });
  it('prints infinities as signs, a missing value as a dash, finite values with the digits asked', () => {
    expect(sweepNumber(Number.NEGATIVE_INFINITY, 3)).toBe('−∞');
    expect(sweepNumber(Number.POSITIVE_INFINITY, 3)).toBe('+∞');
    expect(sweepNumber(null, 3)).toBe('—');
    expect(sweepNumber(-0.12345, 3)).toBe('-0.123');
  });
});
