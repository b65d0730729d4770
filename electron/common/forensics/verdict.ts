import type { Metrics } from '../report/metrics.js';
import type { Verdict } from '../report/report.js';
import type { Divergence } from './divergence.js';

/**
 * The verdict rule (VERDICT_RULE in comparison-report.ts, stated in every report):
 * - diverged: the localiser found a divergent step, or some audio sample differs beyond audioAbs
 *   (or the lengths differ);
 * - identical: not diverged, every step's talker statistics equal exactly, and the audio (when there
 *   is audio) bit-identical;
 * - within-tolerance: otherwise.
 */
export function verdictOf(divergence: Divergence, metrics?: Pick<Metrics, 'bitIdentical'>): Verdict {
  if (divergence.firstStep !== null || divergence.firstDifferingSample !== undefined) return 'diverged';
  const exactSteps = divergence.steps.every((s) => s.maxStatDiff === 0 || s.maxStatDiff === null);
  const exactAudio = metrics ? metrics.bitIdentical : true;
  return exactSteps && exactAudio ? 'identical' : 'within-tolerance';
}
