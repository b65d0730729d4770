import { describe, expect, it } from 'vitest';
import { Sampling, Seed } from '../../../electron/common/api/primitives.js';
import { FORM_BOUNDS, rangeText, readField } from '../../../renderer/src/lib/form-bounds.js';

describe('form bounds: the form accepts what the host accepts', () => {
  it('reads the maxima from the host schemas (primitives.ts: temperature .max(10), topP .max(1), Seed .max(2^32 - 1))', () => {
    expect(FORM_BOUNDS.temperature).toMatchObject({ min: 0.05, max: 10, integer: false });
    expect(FORM_BOUNDS.topP).toMatchObject({ min: 0.05, max: 1, integer: false });
    expect(FORM_BOUNDS.topK).toMatchObject({ min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }); // .int(): zod's safe-integer top
    expect(FORM_BOUNDS.seed).toMatchObject({ min: 0, max: 4294967295, integer: true });
  });

  it('every value the form takes (or sets on leaving the field) passes the host schema; every refused one is refused there too', () => {
    const samples = ['', 'abc', '-1', '0', '0.01', '0.05', '0.5', '1', '3.5', '9.99', '10', '10.01', '50', '1e3', '4294967295', '4294967296', '-0.5'];
    const schemas = { temperature: Sampling.shape.temperature.unwrap(), topK: Sampling.shape.topK.unwrap(), topP: Sampling.shape.topP.unwrap(), seed: Seed };
    for (const [field, bounds] of Object.entries(FORM_BOUNDS)) {
      const schema = schemas[field as keyof typeof schemas];
      for (const raw of samples) {
        const read = readField(raw, bounds);
        const where = `${field} "${raw}"`;
        if (read.ok) expect(schema.safeParse(read.value).success, where).toBe(true);
        else if (read.nearest !== undefined) expect(schema.safeParse(read.nearest).success, where).toBe(true);
        // What the host refuses, the form refuses (the form may be stricter: 0.01 is below its 0.05 step).
        if (raw.trim() !== '' && !schema.safeParse(Number(raw)).success) expect(read.ok, where).toBe(false);
      }
    }
  });

  it('says why a value is refused and what it becomes', () => {
    expect(readField('50', FORM_BOUNDS.temperature)).toEqual({ ok: false, issue: 'Temperature is at most 10; it will be set to 10.', nearest: 10 });
    expect(readField('0', FORM_BOUNDS.temperature)).toEqual({ ok: false, issue: 'Temperature is at least 0.05; it will be set to 0.05.', nearest: 0.05 });
    expect(readField('1.5', FORM_BOUNDS.topP)).toMatchObject({ ok: false, nearest: 1 });
    expect(readField('3.5', FORM_BOUNDS.topK)).toEqual({ ok: false, issue: 'Top-k is a whole number; it will be set to 3.', nearest: 3 });
    expect(readField('4294967296', FORM_BOUNDS.seed)).toMatchObject({ ok: false, nearest: 4294967295 });
    expect(readField('', FORM_BOUNDS.temperature)).toEqual({ ok: false, issue: 'Temperature needs a number from 0.05–10.' });
    expect(readField(' 0.7 ', FORM_BOUNDS.temperature)).toEqual({ ok: true, value: 0.7 });
    expect(readField('10', FORM_BOUNDS.temperature)).toEqual({ ok: true, value: 10 });
  });

  it('writes the range for people', () => {
    expect(rangeText(FORM_BOUNDS.temperature)).toBe('0.05–10');
    expect(rangeText(FORM_BOUNDS.topK)).toBe('0 or more');
  });
});
