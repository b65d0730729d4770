import { AFTER_UNRELIABLE_LAG, LAG_MIN_PEAK, reportLagReliable, unreliableLag } from '../lag-reliability.js';
import { audioNotComparedReason } from '../audio-check.js';
import { degenerateFormats } from './degenerate-values.js';
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
  const { num, signed, take, unmeasured } = measured(m);
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
    ['Gain B→A (least squares)', signed(m.gainDb, 3, 'dB') + (unmeasured(m.gainDb) ? '' : caveat)],
    ['Matched null depth', num(m.matchedNullDepthDb, 2, 'dB') + (unmeasured(m.matchedNullDepthDb) ? '' : caveat)],
    ['Loudness A (all channels, BS.1770)', take(m.loudnessA, 2, 'LUFS') + minusInfinityReason(m.loudnessA, m.lengthA, m.sampleRate)],
    ['Loudness B (all channels, BS.1770)', take(m.loudnessB, 2, 'LUFS') + minusInfinityReason(m.loudnessB, m.lengthB, m.sampleRate)],
    ['Loudness B−A', Number.isNaN(m.loudnessA) || Number.isNaN(m.loudnessB) ? num(NaN, 2) : loudnessDeltaText(m, 2)],
    ...(m.loudnessDownmixA === undefined ? [] : [['Loudness of the mono downmix A / B', `${take(m.loudnessDownmixA, 2)} / ${take(m.loudnessDownmixB!, 2)} LUFS`] as Row]),
    ['Sample peak A / B', `${take(m.peakA, 2)} / ${take(m.peakB, 2)} dBFS`],
    ['RMS A / B', `${take(m.rmsA, 2)} / ${take(m.rmsB, 2)} dBFS`],
    ['Log-spectral distance', num(m.lsdDb, 3, 'dB')],
    ['Mel-cepstral distortion', num(m.mcdDb, 3, 'dB')],
  ];
}

/**
 * `num` and `signed` for metrics of A against B, and `take` for a value of one take, that write why a value
 * could not be measured ("not measurable: A is digital silence") when a take is degenerate (degenerate-values.ts).
 */
function measured(m: Metrics): { num: typeof plainNum; signed: typeof plainSigned; take: typeof plainNum; unmeasured: (value: number) => boolean } {
  const toNumber = (value: number) => Number(value);
  const num = degenerateFormats(m.audio, plainNum, toNumber);
  return { num: num.compared, signed: degenerateFormats(m.audio, plainSigned, toNumber).compared, take: num.perTake, unmeasured: num.unmeasured };
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
