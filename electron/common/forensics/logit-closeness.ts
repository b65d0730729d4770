import type { Divergence } from './divergence.js';

type Closeness = Pick<Divergence, 'largestLogitDiff' | 'firstNonFinite' | 'steps'>;

/** The first step where a side's talker logit statistics hold a NaN or ±Inf, from the recorded statistics. */
function firstNonFiniteStats(steps: Divergence['steps']): { step: number; side: 'A' | 'B' } | null {
  const bad = (s: Divergence['steps'][number]['a']) => s !== null && [s.mean, s.std, s.min, s.max].some((v) => v !== undefined && !Number.isFinite(v));
  for (const s of steps) {
    if (bad(s.a)) return { step: s.step, side: 'A' };
    if (bad(s.b)) return { step: s.step, side: 'B' };
  }
  return null;
}

/**
 * Where non-finite values first appear, in words (`B from step 4 in talker: NaN 1024, Inf 0`), from the
 * per-stage NaN/Inf counts, else from the logit statistics themselves (a trace without counts); null when
 * every value is finite.
 */
export function nonFiniteWords(d: Closeness): string | null {
  const sides = (['a', 'b'] as const).flatMap((k) => {
    const f = d.firstNonFinite[k];
    return f ? [`${k.toUpperCase()} from step ${f.step} in ${f.stage}: NaN ${f.nan}, Inf ${f.inf}`] : [];
  });
  if (sides.length > 0) return sides.join('; ');
  const stats = firstNonFiniteStats(d.steps);
  return stats ? `${stats.side} logit statistics from step ${stats.step}` : null;
}

/**
 * How far apart the logit statistics came, for the studio's tolerance line: the largest finite |Δ| and
 * where, and any non-finite values (a NaN is no difference of statistics that can be measured, so a NaN
 * run is never "equal at every step").
 */
export function logitClosenessWords(d: Closeness): string {
  const big = d.largestLogitDiff;
  const nonFinite = nonFiniteWords(d);
  const largest = big ? `logit |Δ| ${big.value.toPrecision(3)} at step ${big.step} (${big.field})` : null;
  if (nonFinite === null) return largest ?? 'logit statistics equal at every step';
  return `non-finite values (${nonFinite}); ${largest ? `largest finite ${largest}` : 'the finite logit statistics equal'}`;
}
