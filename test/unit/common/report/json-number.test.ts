import { describe, expect, it } from 'vitest';
import { JsonNumber, stringifyReport } from '../../../../electron/common/report/json-number.js';

describe('non-finite numbers in reports', () => {
  it('writes Infinity, -Infinity and NaN as strings a JSON reader keeps, and reads them back', () => {
    const text = stringifyReport({ a: -Infinity, b: Infinity, c: NaN, d: 1.5 }, 0);
    expect(text).toBe('{"a":"-Infinity","b":"Infinity","c":"NaN","d":1.5}');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(JsonNumber.parse(parsed.a)).toBe(-Infinity);
    expect(JsonNumber.parse(parsed.b)).toBe(Infinity);
    expect(JsonNumber.parse(parsed.c)).toBeNaN();
    expect(JsonNumber.parse(parsed.d)).toBe(1.5);
  });

  it('refuses other strings', () => {
    expect(() => JsonNumber.parse('inf')).toThrow();
  });
});

describe('non-finite numbers in memory', () => {
  it('accepts Infinity and NaN as numbers, as a report carries them before it is written', () => {
    expect(JsonNumber.parse(Infinity)).toBe(Infinity);
    expect(JsonNumber.parse(-Infinity)).toBe(-Infinity);
    expect(JsonNumber.parse(NaN)).toBeNaN();
  });
});
