import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countNonFinite, logitStats } from '../../../../electron/common/trace/logit-stats.js';

// The cases the Python and Rust tests share (python/tests/test_logit_stats_shared_cases.py,
// rust/tts-parity-trace/tests/shared_cases.rs); test/fixtures/make-logit-stats-cases.py derives the expected
// values by exact arithmetic, so every implementation must give exactly these bits.
type JsonNumber = number | 'NaN' | 'Infinity' | '-Infinity';
interface Case {
  name: string;
  row: JsonNumber[];
  expected: { mean: JsonNumber; variance: JsonNumber; min: JsonNumber; max: JsonNumber; argmax: number; top5: { id: number; logit: JsonNumber }[]; nan: number; inf: number };
}
const file = join(__dirname, '..', '..', '..', 'fixtures', 'logit-stats-cases.json');
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };
const num = (x: JsonNumber): number => (typeof x === 'number' ? x : Number(x));

describe('logitStats on the cases shared with Python and Rust', () => {
  it('holds at least the ten cases the three tests share', () => expect(cases.length).toBeGreaterThanOrEqual(10));
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const row = Float32Array.from(c.row.map(num));
    const s = logitStats(row);
    const e = c.expected;
    // Object.is: exact bits for numbers (NaN equals NaN; 0 and -0 differ).
    expect(Object.is(s.mean, num(e.mean)), `mean ${s.mean}`).toBe(true);
    expect(Object.is(s.std, Math.sqrt(num(e.variance))), `std ${s.std}`).toBe(true);
    expect([s.min, s.max]).toEqual([num(e.min), num(e.max)]);
    expect(s.argmax).toBe(e.argmax);
    expect(s.top5).toEqual(e.top5.map((t) => ({ id: t.id, logit: num(t.logit) })));
    expect(countNonFinite(row)).toEqual({ nan: e.nan, inf: e.inf });
  });
});
