import type { Metrics } from '../report/metrics.js';
import type { Verdict } from '../report/report.js';

export const AUDIO_VERDICT_RULE =
  'audio only (no traces): identical: bit-identical and the same length; within-tolerance: the same length and every sample within tolerances.audioAbs; diverged: anything else';

/** The verdict of a WAV pair with no steps to compare: the audio part of the trace verdict rule (VERDICT_RULE). */
export function audioVerdict(m: Pick<Metrics, 'bitIdentical' | 'maxAbsDiff' | 'lengthDifference'>, audioAbs: number): Verdict {
  if (m.bitIdentical) return 'identical';
  return m.lengthDifference === 0 && m.maxAbsDiff <= audioAbs ? 'within-tolerance' : 'diverged';
}
