import { z } from 'zod';

/** Quantiles of the finite values of one metric over a sweep's cases; null fields when none is finite. */
export const Quantiles = z.object({
  /** Cases with a finite value. */
  count: z.number().int().nonnegative(),
  /** Cases whose value is NaN or ±Infinity (e.g. null depth −Infinity when bit-identical). */
  nonFinite: z.number().int().nonnegative(),
  min: z.number().nullable(),
  p05: z.number().nullable(),
  p25: z.number().nullable(),
  p50: z.number().nullable(),
  p75: z.number().nullable(),
  p95: z.number().nullable(),
  max: z.number().nullable(),
});
export type Quantiles = z.infer<typeof Quantiles>;

/**
 * Linear interpolation between closest ranks (Hyndman & Fan type 7, numpy's default): q of the sorted
 * values at position q·(n−1). Sorting first makes the result independent of the input order, which is
 * what lets a merge of shards equal the unsharded summary byte for byte.
 */
export function quantilesOf(values: (number | null)[]): Quantiles {
  const present = values.filter((v): v is number => v !== null);
  const finite = present.filter(Number.isFinite).sort((x, y) => x - y);
  const at = (q: number): number | null => {
    if (finite.length === 0) return null;
    const pos = q * (finite.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return finite[lo] + (finite[hi] - finite[lo]) * (pos - lo);
  };
  return {
    count: finite.length,
    nonFinite: present.length - finite.length,
    min: at(0),
    p05: at(0.05),
    p25: at(0.25),
    p50: at(0.5),
    p75: at(0.75),
    p95: at(0.95),
    max: at(1),
  };
}
