import { z } from 'zod';

/**
 * How many value pairs a |Δ| fold saw: `finite` with both values finite (the only ones a difference is
 * measured over), `nonFinite` with a NaN or an infinity on either side. With `finite` 0 and `nonFinite`
 * above 0, no difference was measured at all: the fold's 0 (or null) must not be read as "identical".
 */
export const PairCounts = z.object({ finite: z.number().int().nonnegative(), nonFinite: z.number().int().nonnegative() });
export type PairCounts = z.infer<typeof PairCounts>;

/**
 * The largest |a − b| over pairs. NaN against NaN and an infinity against itself are no difference; a
 * NaN against anything else, or a difference that is not a number (+∞ − +∞ aside), makes the result NaN
 * for good. NaN too when no finite pair was seen but a non-finite one was: nothing was measured.
 */
export class AbsDiffFold {
  largest = 0;
  readonly counts: PairCounts = { finite: 0, nonFinite: 0 };

  add(x: number, y: number): void {
    if (Number.isFinite(x) && Number.isFinite(y)) this.counts.finite++;
    else this.counts.nonFinite++;
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) return;
    const d = Math.abs(x - y);
    this.largest = Number.isNaN(d) || Number.isNaN(this.largest) ? NaN : Math.max(this.largest, d);
  }

  /** The largest |Δ|, NaN when it is not a number or nothing finite was compared (see the class). */
  value(): number {
    return this.counts.finite === 0 && this.counts.nonFinite > 0 ? NaN : this.largest;
  }
}

/** Counts of two folds added together (a run's steps, both runs' sides). */
export function addCounts(a: PairCounts, b: PairCounts): PairCounts {
  return { finite: a.finite + b.finite, nonFinite: a.nonFinite + b.nonFinite };
}

/**
 * "no finite … compared (N non-finite)" when a fold measured nothing, for every view that would
 * otherwise print its 0 or leave the difference out; null when something finite was compared.
 */
export function nothingFiniteWords(what: string, counts: PairCounts | undefined): string | null {
  if (!counts || counts.finite > 0 || counts.nonFinite === 0) return null;
  return `no finite ${what} compared (all ${counts.nonFinite} non-finite)`;
}
