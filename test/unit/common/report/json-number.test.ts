import { describe, expect, it } from 'vitest';
import { JsonNumber, joinedPieces, reportJsonChunks, stringifyReport } from '../../../../electron/common/report/json-number.js';

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

describe('reportJsonChunks (report.json in pieces)', () => {
  const rows = Array.from({ length: 50_000 }, (_, i) => ({ step: i + 1, a: { mean: Math.sin(i) }, codes: [i % 7, 3] }));
  const report = { schema: 'x', divergence: { firstStep: 2, divergedSteps: [2, 3, 4], steps: rows }, nothing: undefined, worst: -Infinity };

  it('joined, reads back as the report (non-finite numbers as strings, undefined left out)', () => {
    const text = reportJsonChunks(report).join('');
    expect(JSON.parse(text)).toEqual({ schema: 'x', divergence: { firstStep: 2, divergedSteps: [2, 3, 4], steps: rows }, worst: '-Infinity' });
  });

  it('no piece is longer than one row, so no step count builds one string of the report\'s size', () => {
    const pieces = reportJsonChunks(report);
    const longestRow = Math.max(...rows.map((r) => JSON.stringify(r).length));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(longestRow + 8); // + the indent and newline
  });

  it('indents objects by 2 and writes each row of an array of objects on one line', () => {
    expect(stringifyReport({ a: { b: 1 }, rows: [{ s: 1 }, { s: 2 }], ids: [1, 2] })).toBe('{\n  "a": {\n    "b": 1\n  },\n  "rows": [\n    {"s":1},\n    {"s":2}\n  ],\n  "ids": [1,2]\n}');
  });
});

describe('joinedPieces', () => {
  const pieces = Array.from({ length: 1000 }, (_, i) => `piece ${i};`);
  const collect = async (joined: AsyncIterable<string>) => {
    const out: string[] = [];
    for await (const s of joined) out.push(s);
    return out;
  };
  const check = (joined: string[]) => {
    expect(joined.join('')).toBe(pieces.join(''));
    expect(joined.length).toBeGreaterThan(50);
    for (const s of joined.slice(0, -1)) expect(s.length).toBeGreaterThanOrEqual(100);
  };

  it('joins a list of pieces into strings of about the size asked, losing nothing', async () => {
    check(await collect(joinedPieces(pieces, 100)));
  });

  it('joins pieces that come one at a time the same way', async () => {
    async function* oneAtATime() {
      for (const p of pieces) yield p;
    }
    check(await collect(joinedPieces(oneAtATime(), 100)));
  });
});
