import { describe, expect, it } from 'vitest';
import { num, signed } from '../../../../../electron/common/report/format/numbers.js';
import { markdownTable, textTable } from '../../../../../electron/common/report/format/text-table.js';

describe('CLI number formatting', () => {
  it('spells ±Infinity as the studio does (−∞ with U+2212 MINUS SIGN), with the unit; report.json keeps "-Infinity"', () => {
    expect(num(-Infinity, 2, 'dB')).toBe('\u2212∞ dB');
    expect(num(Infinity, 2, 'dB')).toBe('∞ dB');
    expect(signed(Infinity, 2, 'dB')).toBe('∞ dB');
    expect(signed(-Infinity, 2, 'LU')).toBe('\u2212∞ LU');
    expect(num(NaN, 6)).toBe('NaN');
    expect(num(-1.9382, 2, 'LU')).toBe('-1.94 LU');
  });

  it('signs differences', () => {
    expect(signed(1.9382, 3, 'dB')).toBe('+1.938 dB');
    expect(signed(-1.9382, 2, 'LU')).toBe('-1.94 LU');
    expect(signed(0, 0, 'samples')).toBe('0 samples');
  });
});

describe('tables', () => {
  it('aligns the value column on a terminal', () => {
    expect(textTable([['a', '1'], ['long label', '2']], 'Head')).toBe('Head\n  a           1\n  long label  2');
  });

  it('escapes pipes in Markdown cells', () => {
    expect(markdownTable([['Max |A−B|', '0.5']])).toBe('| Metric | Value |\n| --- | --- |\n| Max \\|A−B\\| | 0.5 |');
  });
});
