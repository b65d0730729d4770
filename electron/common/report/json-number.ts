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

/**
 * A report as JSON text: indent 0 is compact; indent 2 (the default) is reportJsonChunks joined, the
 * layout every report.json has.
 */
export function stringifyReport(value: unknown, indent: 0 | 2 = 2): string {
  return indent === 0 ? JSON.stringify(value, nonFiniteReplacer) : reportJsonChunks(value).join('');
}

const compact = (value: unknown): string => JSON.stringify(value, nonFiniteReplacer);
const isRow = (value: unknown): boolean => typeof value === 'object' && value !== null;

/**
 * A report's JSON text in pieces, none longer than one row, so a report of a million steps is written
 * without one string of its size (V8 refuses strings past 2^29 characters). Objects are indented by
 * 2 as JSON.stringify(v, null, 2) does; an array of objects or arrays (steps, seams) has one compact
 * row per line; an array of numbers or strings is one compact line.
 */
export function reportJsonChunks(value: unknown): string[] {
  const out: string[] = [];
  writeValue(value, '', out);
  return out;
}

function writeValue(value: unknown, indent: string, out: string[]): void {
  const json = (value as { toJSON?: () => unknown } | null)?.toJSON;
  const v = nonFiniteReplacer('', typeof json === 'function' ? json.call(value) : value);
  if (!isRow(v)) {
    out.push(compact(v));
    return;
  }
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0 || !v.some(isRow)) {
      out.push(compact(v));
      return;
    }
    out.push('[');
    v.forEach((row, i) => out.push(`\n${inner}${compact(row) ?? 'null'}${i < v.length - 1 ? ',' : ''}`));
    out.push(`\n${indent}]`);
    return;
  }
  // Keys whose values JSON leaves out (undefined, functions, symbols) are left out here too.
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
  if (entries.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  entries.forEach(([key, x], i) => {
    out.push(`\n${inner}${JSON.stringify(key)}: `);
    writeValue(x, inner, out);
    if (i < entries.length - 1) out.push(',');
  });
  out.push(`\n${indent}}`);
}

/**
 * Pieces of text joined into strings of about `size` characters (1 MiB): one write each, not one per piece.
 * The pieces may be a list or come one at a time (reportJsonWithRows).
 */
export async function* joinedPieces(pieces: Iterable<string> | AsyncIterable<string>, size = 1 << 20): AsyncGenerator<string> {
  let batch: string[] = [];
  let length = 0;
  for await (const piece of pieces) {
    batch.push(piece);
    length += piece.length;
    if (length >= size) {
      yield batch.join('');
      batch = [];
      length = 0;
    }
  }
  if (batch.length > 0) yield batch.join('');
}
