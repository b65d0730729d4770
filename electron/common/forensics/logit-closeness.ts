import { nothingFiniteWords } from './abs-diff.js';
import type { Divergence } from './divergence.js';

type Closeness = Pick<Divergence, 'largestLogitDiff' | 'firstNonFinite' | 'steps' | 'logitPairs'>;

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
 * Where non-finite values first appear, in words (`B non-finite from step 4 (talker: 193 NaN)`), from the
 * per-stage NaN/Inf counts, else from the logit statistics themselves (a trace without counts); null when
 * every value is finite.
 */
export function nonFiniteWords(d: Closeness): string | null {
  const sides = (['a', 'b'] as const).flatMap((k) => {
    const f = d.firstNonFinite[k];
    const counts = [f?.nan ? `${f.nan} NaN` : '', f?.inf ? `${f.inf} Inf` : ''].filter(Boolean).join(', ');
    return f ? [`${k.toUpperCase()} non-finite from step ${f.step} (${f.stage}: ${counts})`] : [];
  });
  if (sides.length > 0) return sides.join('; ');
  const stats = firstNonFiniteStats(d.steps);
  return stats ? `${stats.side} logit statistics non-finite from step ${stats.step}` : null;
}

/**
 * How far apart the logit statistics came, for the studio's tolerance line: any non-finite values (a
 * NaN is no difference that can be measured, so a NaN run is never "equal at every step"), and the
 * largest finite |Δ| and where. Short: it shares one line with the audio's largest difference.
 */
export function logitClosenessWords(d: Closeness): string {
  const big = d.largestLogitDiff;
  const nonFinite = nonFiniteWords(d);
  const largest = big ? `logit |Δ| ${big.value.toPrecision(3)} at step ${big.step} (${big.field})` : null;
  const nothing = nothingFiniteWords('logit statistics', d.logitPairs);
  if (nonFinite === null) return largest ?? nothing ?? 'logit statistics equal at every step';
  return largest ? `${nonFinite}; largest finite ${largest}` : nothing ? `${nonFinite}; ${nothing}` : nonFinite;
}
