import { AFTER_UNRELIABLE_LAG, LAG_MIN_PEAK, reportLagReliable, unreliableLag } from '../lag-reliability.js';
import { audioNotComparedReason, unmeasurableWords } from '../audio-check.js';
import type { Metrics } from '../metrics.js';
import { loudnessDeltaText, minusInfinityReason } from './loudness-words.js';
import { num as plainNum, signed as plainSigned } from './numbers.js';

export type Row = [label: string, value: string];

function seconds(samples: number, sampleRate: number): string {
  return `${samples} samples (${plainNum(samples / sampleRate, 3, 's')})`;
}

/**
 * The summary rows shown on a TTY, in report.md and report.html, with units; see docs/report-format.md.
 * An unreliable lag (lag-reliability.ts, the studio's rule) is said so, and not reported as a shift;
 * the gain and matched null measured after it carry the caveat.
 */
export function metricRows(m: Metrics): Row[] {
  const reliable = reportLagReliable(m);
  const caveat = reliable ? '' : AFTER_UNRELIABLE_LAG;
  const reason = audioNotComparedReason(m.audio);
  const { num, signed } = measured(m);
  return [
    ...(reason ? [['Audio', reason] as Row] : []),
    ['Sample rate', `${m.sampleRate} Hz`],
    ['Length A', seconds(m.lengthA, m.sampleRate)],
    ['Length B', `${seconds(m.lengthB, m.sampleRate)}, B−A ${signed(m.lengthDifference, 0, 'samples')}`],
    ['Bit-identical', `${m.bitIdentical ? 'yes' : 'no'}${reason ? ' (audio not compared)' : ''}`],
    ['Max |A−B|', num(m.maxAbsDiff, 6)],
    ['Correlation (lag 0)', num(m.correlation, 6)],
    ['Cross-correlation peak', Number.isNaN(m.xcorrPeak) ? num(m.xcorrPeak, 6) : `${num(m.xcorrPeak, 6)} at lag ${m.lagSamples} samples (${num(m.lagMs, 3, 'ms')}), searched ±${num(m.maxLagMs, 1, 'ms')}${reliable ? '' : `; below ${LAG_MIN_PEAK}: lag unreliable`}`],
    ['Sub-sample lag', reliable || Number.isNaN(m.xcorrPeak) ? num(m.fractionalLagSamples, 3, 'samples') : unreliableLag(m.xcorrPeak)],
    ['Null depth', num(m.nullDepthDb, 2, 'dB')],
    ['SNR', num(m.snrDb, 2, 'dB')],
    ['Gain B→A (least squares)', signed(m.gainDb, 3, 'dB') + (Number.isNaN(m.gainDb) ? '' : caveat)],
    ['Matched null depth', num(m.matchedNullDepthDb, 2, 'dB') + (Number.isNaN(m.matchedNullDepthDb) ? '' : caveat)],
    ['Loudness A (all channels, BS.1770)', num(m.loudnessA, 2, 'LUFS') + minusInfinityReason(m.loudnessA, m.lengthA, m.sampleRate)],
    ['Loudness B (all channels, BS.1770)', num(m.loudnessB, 2, 'LUFS') + minusInfinityReason(m.loudnessB, m.lengthB, m.sampleRate)],
    ['Loudness B−A', Number.isNaN(m.loudnessA) || Number.isNaN(m.loudnessB) ? num(NaN, 2) : loudnessDeltaText(m, 2)],
    ...(m.loudnessDownmixA === undefined ? [] : [['Loudness of the mono downmix A / B', `${num(m.loudnessDownmixA, 2)} / ${num(m.loudnessDownmixB!, 2)} LUFS`] as Row]),
    ['Sample peak A / B', `${num(m.peakA, 2)} / ${num(m.peakB, 2)} dBFS`],
    ['RMS A / B', `${num(m.rmsA, 2)} / ${num(m.rmsB, 2)} dBFS`],
    ['Log-spectral distance', num(m.lsdDb, 3, 'dB')],
    ['Mel-cepstral distortion', num(m.mcdDb, 3, 'dB')],
  ];
}

/**
 * `num` and `signed` that write, for a NaN, why the metric could not be measured ("not measurable: A is
 * digital silence") when a take is degenerate (audio-check.ts), never a bare NaN.
 */
function measured(m: Metrics): { num: typeof plainNum; signed: typeof plainSigned } {
  const why = unmeasurableWords(m.audio);
  if (!why) return { num: plainNum, signed: plainSigned };
  return {
    num: (value, digits, unit) => (Number.isNaN(value) ? why : plainNum(value, digits, unit)),
    signed: (value, digits, unit) => (Number.isNaN(value) ? why : plainSigned(value, digits, unit)),
  };
}

/** The waveform metrics again after shifting B by the cross-correlation lag. */
export function alignedRows(m: Metrics): Row[] {
  const a = m.aligned;
  const { num } = measured(m);
  return [
    ['Lag removed', `${a.lagSamples} samples, ${a.comparedLength} samples compared`],
    ['Bit-identical', a.bitIdentical ? 'yes' : 'no'],
    ['Max |A−B|', num(a.maxAbsDiff, 6)],
    ['Correlation', num(a.correlation, 6)],
    ['Null depth', num(a.nullDepthDb, 2, 'dB')],
    ['SNR', num(a.snrDb, 2, 'dB')],
    ['Log-spectral distance', num(a.lsdDb, 3, 'dB')],
    ['Mel-cepstral distortion', num(a.mcdDb, 3, 'dB')],
  ];
}
