import { z } from 'zod';

/**
 * JSON has no Infinity or NaN. Reports write non-finite numbers as the strings "Infinity", "-Infinity"
 * and "NaN" (documented in docs/report-format.md) so every JSON reader keeps them; this schema reads
 * them back into numbers.
 */
export const JsonNumber = z.union([
  z.number(),
  // In memory (a report crossing a transport before it is written) the numbers are still non-finite;
  // zod's z.number() refuses Infinity and NaN, so accept any JS number too.
  z.custom<number>((v) => typeof v === 'number', 'expected a number'),
  z.enum(['Infinity', '-Infinity', 'NaN']).transform((s) => Number(s)),
]);

/** JSON.stringify replacer that writes non-finite numbers as strings. */
export function nonFiniteReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

export function stringifyReport(value: unknown, indent = 2): string {
  return JSON.stringify(value, nonFiniteReplacer, indent);
}
