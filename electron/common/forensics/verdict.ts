import { audioNotComparedReason, isDegenerate, type AudioCheck } from '../report/audio-check.js';
import type { Metrics } from '../report/metrics.js';
import type { Verdict } from '../report/report.js';
import { comparedFieldsPhrase, isPartial } from './compared-fields.js';
import type { Divergence } from './divergence.js';
import type { TeacherForcedDrift } from './drift.js';

/**
 * The verdict rule (VERDICT_RULE in comparison-report.ts, stated in every report):
 * - diverged: the localiser found a divergent step, or some audio sample differs beyond audioAbs
 *   (or the lengths differ);
 * - identical: not diverged, every step's logit statistics (talker and code predictor) finite and equal
 *   exactly (a NaN matches a NaN but measures nothing: divergence.logitPairs), the audio compared and
 *   bit-identical, and the comparison not partial (compared-fields.ts isPartial);
 * - degenerate-audio: not diverged, but a take is digital silence, a constant, non-finite or near-silent
 *   (metrics.audio, report/audio-check.ts): nothing was heard to match, so it is never a match;
 * - within-tolerance: otherwise — including equal traces whose audio was not given
 *   (`audioCompared: false`): a stage that was not checked cannot be called identical.
 */
export function verdictOf(
  divergence: Divergence,
  metrics?: Pick<Metrics, 'bitIdentical' | 'audio'>,
  /** Every step's maxStatDiff is 0 or null; given by a caller whose `steps` hold only some rows (Localiser.statsExact). */
  statsExact = divergence.steps.every((s) => s.maxStatDiff === 0 || s.maxStatDiff === null),
): Verdict {
  if (divergence.firstStep !== null || divergence.firstDifferingSample !== undefined) return 'diverged';
  if (isDegenerate(metrics?.audio)) return 'degenerate-audio';
  if (divergence.audioCompared === false) return 'within-tolerance';
  if (divergence.compared && isPartial(divergence.compared)) return 'within-tolerance';
  const exactSteps = statsExact && !divergence.largestLogitDiff && !divergence.logitPairs?.nonFinite;
  const exactAudio = metrics ? metrics.bitIdentical : true;
  return exactSteps && exactAudio ? 'identical' : 'within-tolerance';
}

/**
 * The verdict in words. Without teacher forcing: a divergence whose first code flip is a near-tie with
 * every logit statistic before it within the near-tie gap (flip.numericallyEquivalent) reads "diverged
 * at a near-tie (numerically equivalent)". With it (`teacherForced`), every would-flip must be a
 * near-tie and the drift within the gap at every step. The verdict value itself stays "diverged"
 * (docs/forensics.md). A within-tolerance verdict over a partial comparison names what it covered:
 * "within tolerance over logits.mean only", never a bare "within-tolerance". Degenerate audio is said
 * (`audio`): "A and B are both digital silence: audio not compared", after "diverged; " when the traces
 * diverged.
 */
export function verdictWords(verdict: Verdict, divergence: Pick<Divergence, 'flip' | 'compared'> | undefined, teacherForced?: TeacherForcedDrift, audio?: AudioCheck): string {
  const reason = audioNotComparedReason(audio);
  if (verdict === 'degenerate-audio') return reason ?? 'degenerate audio: audio not compared';
  const words = traceVerdictWords(verdict, divergence, teacherForced);
  return reason ? `${words}; ${reason}` : words;
}

function traceVerdictWords(verdict: Verdict, divergence: Pick<Divergence, 'flip' | 'compared'> | undefined, teacherForced?: TeacherForcedDrift): string {
  if (verdict === 'within-tolerance' && divergence?.compared && isPartial(divergence.compared)) {
    return `within tolerance over ${comparedFieldsPhrase(divergence.compared)}`;
  }
  if (verdict !== 'diverged') return verdict;
  if (teacherForced) {
    if (!teacherForced.numericallyEquivalent) return verdict;
    return teacherForced.wouldFlip.length > 0 ? 'diverged at a near-tie (numerically equivalent)' : 'diverged by numeric drift only (numerically equivalent under teacher forcing)';
  }
  return divergence?.flip?.numericallyEquivalent ? 'diverged at a near-tie (numerically equivalent)' : verdict;
}
