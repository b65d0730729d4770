import { InputError } from '../errors.js';
import type { LoudnessCurves } from '../report/report.js';
import type { Metrics } from '../report/metrics.js';
import { initFft } from './fft.js';
import { rmsDbfs, rmsDbfsOfSum, samplePeakDbfs } from './levels.js';
import {
  integratedFromSegments,
  integratedLoudness,
  SEGMENT_MS,
  segmentEnergies,
  SHORT_TERM_WINDOW_MS,
  shortTermFromSegments,
} from './loudness.js';
import { matchedNull } from './matched-null.js';
import { type SpectralDistances, type SpectralPair, SpectralSession } from './spectral.js';
import { metricsFromSums, sampleSums, samplesEqual } from './waveform-metrics.js';
import { crossCorrelate } from './xcorr.js';
import { audioCheck } from './take-condition.js';
import { DEFAULT_MAX_LAG_MS } from './lag-range.js';
import { lagIsReliable } from '../report/lag-reliability.js';

export interface CompareOptions {
  /** Cross-correlation searches lags within ±maxLagMs (default 50 ms). */
  maxLagMs?: number;
  /**
   * The programmes' own channels, when `a`/`b` are downmixes of multichannel files: loudness (integrated
   * and the short-term curves) is then measured over them as BS.1770 says (weighted sum of channel
   * powers), and the downmix's loudness is kept apart as loudnessDownmixA/B.
   */
  channels?: { a: readonly Float32Array[]; b: readonly Float32Array[] };
  /** Bytes of power spectra kept between the spectral passes (default SPECTRA_CACHE_BYTES, spectral.ts). */
  spectraCacheBytes?: number;
  /**
   * Computes the spectral distances (LSD/MCD); compareSignals does the rest of the analysis while they
   * run. A host passes one that runs them on a worker thread (the same code, so the same numbers);
   * without one they are computed on this thread.
   */
  spectral?: SpectralRunner;
}

/**
 * One comparison's spectral distances in stages (spectral.ts's SpectralSession): the pair at lag 0 is
 * added before the cross-correlation, so that a worker transforms its spans while this thread searches the
 * lag, and the aligned pair after it.
 */
export interface SpectralJob {
  add(pairs: readonly SpectralPair[]): void;
  /** Every pair's distances, in the order they were added. */
  distances(): Promise<SpectralDistances[]>;
  /** Drops a job whose distances will not be asked for (the comparison failed after an `add`). */
  cancel(): void;
}

export type SpectralRunner = (sampleRate: number, cacheBytes: number | undefined) => SpectralJob;

const onThisThread: SpectralRunner = (sampleRate, cacheBytes) => {
  const session = new SpectralSession(sampleRate, cacheBytes);
  return {
    add: (pairs) => session.add(pairs),
    distances: async () => session.distances(),
    cancel: () => session.close(),
  };
};

/**
 * Compares two mono signals at one sample rate (the caller refuses different rates).
 *
 * Lag-0 metrics are over the common part (the first min(lengthA, lengthB) samples); `bitIdentical`
 * also requires equal lengths. The lag is searched over that common part; `aligned` compares
 * A[i] with B[i + lag] over their whole overlap. Peak and RMS are of each whole mono signal; loudness
 * too, unless `options.channels` gives the multichannel programmes it was downmixed from.
 */
export async function compareSignals(
  a: Float32Array,
  b: Float32Array,
  sampleRate: number,
  options: CompareOptions = {},
): Promise<{ metrics: Metrics; curves: LoudnessCurves }> {
  const maxLagMs = options.maxLagMs ?? DEFAULT_MAX_LAG_MS;
  checkInput(a, b, sampleRate, maxLagMs);
  await initFft();
  const common = Math.min(a.length, b.length);
  const maxLag = Math.min(Math.round((maxLagMs * sampleRate) / 1000), common - 1);

  // The spectral distances start first: they are the longest part, and with options.spectral they run
  // beside everything below, the cross-correlation included.
  const spectral = (options.spectral ?? onThisThread)(sampleRate, options.spectraCacheBytes);
  const equalAtZero = samplesEqual(a, 0, b, 0, common);
  const { xc, start, overlap, equalAligned, pairs, pendingDistances } = lagBesideSpectra(
    a,
    b,
    common,
    maxLag,
    equalAtZero,
    spectral,
  );
  // Handled below; if something before that throws, its error is the one the caller gets.
  pendingDistances.catch(() => {});
  const lag = xc.lag;
  const sumsAtZero = sampleSums(a, 0, b, 0, common);
  const sumsAligned = lag === 0 ? sumsAtZero : sampleSums(a, start, b, start + lag, overlap);
  const atZero = metricsFromSums(sumsAtZero);
  const alignedSamples = lag === 0 ? atZero : metricsFromSums(sumsAligned);
  // The aligned sums are the matched null's integer fit's (same overlap, same order), and at lag 0 Σx²
  // over a whole take is its RMS level's.
  const matched = matchedNull(a, b, xc, sumsAligned);

  const segmentsA = segmentEnergies(options.channels?.a ?? [a], sampleRate);
  const segmentsB = segmentEnergies(options.channels?.b ?? [b], sampleRate);
  const loudnessA = integratedFromSegments(segmentsA);
  const loudnessB = integratedFromSegments(segmentsB);
  const downmix = downmixLoudness(a, b, sampleRate, options.channels);
  const levels = {
    peakA: samplePeakDbfs(a),
    peakB: samplePeakDbfs(b),
    rmsA: a.length === common ? rmsDbfsOfSum(sumsAtZero.saa, common) : rmsDbfs(a),
    rmsB: b.length === common ? rmsDbfsOfSum(sumsAtZero.sbb, common) : rmsDbfs(b),
  };

  const distances = await pendingDistances;
  const identical = { lsdDb: 0, mcdDb: 0 };
  const spectralAtZero = equalAtZero ? identical : distances[0];
  const spectralAligned = lag === 0 ? spectralAtZero : equalAligned ? identical : distances[pairs - 1];
  const aligned = { ...alignedSamples, ...spectralAligned, lagSamples: lag };

  const metrics: Metrics = {
    ...atZero,
    ...spectralAtZero,
    bitIdentical: atZero.bitIdentical && a.length === b.length,
    sampleRate,
    lengthA: a.length,
    lengthB: b.length,
    lengthDifference: b.length - a.length,
    xcorrPeak: xc.peak,
    lagReliable: lagIsReliable(xc.peak),
    lagSamples: lag,
    lagMs: (lag * 1000) / sampleRate,
    maxLagMs,
    fractionalLagSamples: matched.fractionalLagSamples,
    gainDb: matched.gainDb,
    matchedNullDepthDb: matched.matchedNullDepthDb,
    loudnessA,
    loudnessB,
    loudnessDeltaLU: loudnessB - loudnessA,
    ...downmix,
    ...levels,
    aligned,
    audio: audioCheck(a, b),
  };
  const curves: LoudnessCurves = {
    hopMs: SEGMENT_MS,
    windowMs: SHORT_TERM_WINDOW_MS,
    shortTermA: Array.from(shortTermFromSegments(segmentsA)),
    shortTermB: Array.from(shortTermFromSegments(segmentsB)),
  };
  return { metrics, curves };
}

/**
 * The cross-correlation, with the spectral job's pairs added around it: the pair at lag 0 before (unless
 * A and B are equal there), the aligned pair after (unless the lag is 0 or they are equal aligned): A[i]
 * against B[i + lag] over their whole overlap, i from `start`, `overlap` samples. `pairs` counts the pairs
 * added; the job is cancelled when anything here throws.
 */
function lagBesideSpectra(
  a: Float32Array,
  b: Float32Array,
  common: number,
  maxLag: number,
  equalAtZero: boolean,
  spectral: SpectralJob,
) {
  try {
    let pairs = 0;
    if (!equalAtZero) {
      spectral.add([{ a: { signal: a, start: 0 }, b: { signal: b, start: 0 }, length: common }]);
      pairs++;
    }
    const xc = crossCorrelate(a, b, common, maxLag);
    const start = Math.max(0, -xc.lag);
    const overlap = Math.min(a.length, b.length - xc.lag) - start;
    const equalAligned = xc.lag === 0 ? equalAtZero : samplesEqual(a, start, b, start + xc.lag, overlap);
    if (xc.lag !== 0 && !equalAligned) {
      spectral.add([{ a: { signal: a, start }, b: { signal: b, start: start + xc.lag }, length: overlap }]);
      pairs++;
    }
    return { xc, start, overlap, equalAligned, pairs, pendingDistances: spectral.distances() };
  } catch (error) {
    spectral.cancel();
    throw error;
  }
}

/** The mono downmixes' loudness, reported beside the all-channel headline when either side has several channels. */
function downmixLoudness(
  a: Float32Array,
  b: Float32Array,
  sampleRate: number,
  channels: CompareOptions['channels'],
) {
  if (!channels || (channels.a.length === 1 && channels.b.length === 1)) return {};
  return {
    loudnessDownmixA: integratedLoudness([a], sampleRate),
    loudnessDownmixB: integratedLoudness([b], sampleRate),
  };
}

function checkInput(a: Float32Array, b: Float32Array, sampleRate: number, maxLagMs: number): void {
  if (!(Number.isInteger(sampleRate) && sampleRate > 0 && sampleRate <= 1_000_000)) {
    throw new InputError(
      `compare: sample rate must be a positive integer up to 1000000 Hz, found ${sampleRate}`,
    );
  }
  if (a.length === 0 || b.length === 0) {
    throw new InputError(`compare: nothing to compare: A has ${a.length} samples, B has ${b.length}`);
  }
  if (!(Number.isFinite(maxLagMs) && maxLagMs >= 0)) {
    throw new InputError(`compare: maxLagMs must be a finite number ≥ 0, found ${maxLagMs}`);
  }
}
