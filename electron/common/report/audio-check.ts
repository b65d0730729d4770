import { z } from 'zod';
import { JsonNumber } from './json-number.js';

/**
 * What one take's samples are, before anything is measured on them (analysis/take-condition.ts):
 * - `non-finite`: at least one sample is NaN or ±Infinity;
 * - `digital-silence`: every sample is exactly 0;
 * - `constant`: every sample is the same finite non-zero value (a DC level, no signal);
 * - `near-silent`: finite, not constant, sample peak below NEAR_SILENT_PEAK (one 16-bit step): two such
 *   takes differ by less than the default audio tolerance (1e-4) whatever they hold;
 * - `audible`: anything else.
 * Every condition but `audible` is degenerate: its audio is not compared, and a verdict over it is never
 * a match (verdict.ts).
 */
export const TakeCondition = z.enum(['audible', 'near-silent', 'digital-silence', 'constant', 'non-finite']);
export type TakeCondition = z.infer<typeof TakeCondition>;

/** 2^-15 (−90.3 dBFS): one step of 16-bit PCM; a take whose peak is below it writes as silence in pcm16. */
export const NEAR_SILENT_PEAK = 2 ** -15;

export const TakeCheck = z.object({
  condition: TakeCondition,
  /** Samples that are NaN or ±Infinity. */
  nonFinite: z.number().int().nonnegative(),
  /** Largest |x| over the finite samples (linear, full scale = 1). */
  peak: JsonNumber,
  /** `constant` only: the value every sample holds. */
  value: JsonNumber.optional(),
});
export type TakeCheck = z.infer<typeof TakeCheck>;

/** `metrics.audio`: each take's condition. Absent in reports written before it was added. */
export const AudioCheck = z.object({ a: TakeCheck, b: TakeCheck });
export type AudioCheck = z.infer<typeof AudioCheck>;

export function isDegenerate(check: AudioCheck | undefined): boolean {
  return check !== undefined && (check.a.condition !== 'audible' || check.b.condition !== 'audible');
}

/** A constant take's value to 6 significant digits (a float32 0.2 reads 0.2, not 0.20000000298023224). */
const level = (t: TakeCheck): string => String(Number(Number(t.value).toPrecision(6)));

function dbfs(peak: number): string {
  return `${(20 * Math.log10(peak)).toFixed(1).replace('-', '\u2212')} dBFS`;
}

/** What a degenerate take is, as a predicate: "is digital silence", "holds 3 NaN/Inf samples". */
function isWords(t: TakeCheck): string {
  switch (t.condition) {
    case 'digital-silence':
      return 'is digital silence';
    case 'constant':
      return `is a constant ${level(t)} (no signal)`;
    case 'non-finite':
      return `holds ${t.nonFinite} NaN/Inf sample${t.nonFinite === 1 ? '' : 's'}`;
    case 'near-silent':
      return `is near-silent (peak ${dbfs(Number(t.peak))}, below one 16-bit step)`;
    default:
      return 'is audible';
  }
}

/**
 * Why the audio was not compared, one sentence for every surface (CLI, report.md/html, studio, gate):
 * "A and B are both digital silence: audio not compared"; undefined when both takes are audible.
 */
export function audioNotComparedReason(check: AudioCheck | undefined): string | undefined {
  if (!check || !isDegenerate(check)) return undefined;
  const { a, b } = check;
  const subject =
    a.condition === b.condition && a.condition !== 'audible' && (a.condition !== 'constant' || level(a) === level(b))
      ? `A and B ${bothWords(a)}`
      : [a.condition !== 'audible' ? `A ${isWords(a)}` : undefined, b.condition !== 'audible' ? `B ${isWords(b)}` : undefined]
          .filter((s) => s !== undefined)
          .join(' and ');
  return `${subject}: audio not compared`;
}

function bothWords(t: TakeCheck): string {
  switch (t.condition) {
    case 'digital-silence':
      return 'are both digital silence';
    case 'constant':
      return `are both a constant ${level(t)} (no signal)`;
    case 'non-finite':
      return 'both hold NaN/Inf samples';
    default:
      return 'are both near-silent (below one 16-bit step)';
  }
}

/** One take's condition as a sentence ("the audio is digital silence"); undefined when it is audible. */
export function takeWords(subject: string, t: TakeCheck): string | undefined {
  return t.condition === 'audible' ? undefined : `${subject} ${isWords(t)}`;
}

/**
 * Why a metric that came out NaN has no value: the degenerate take that makes it unmeasurable
 * ("not measurable: A is digital silence"). Undefined when the audio is not degenerate.
 */
export function unmeasurableWords(check: AudioCheck | undefined): string | undefined {
  if (!check || !isDegenerate(check)) return undefined;
  const parts = (['a', 'b'] as const)
    .filter((s) => check[s].condition !== 'audible' && check[s].condition !== 'near-silent')
    .map((s) => `${s.toUpperCase()} ${isWords(check[s])}`);
  return parts.length > 0 ? `not measurable: ${parts.join(', ')}` : undefined;
}
