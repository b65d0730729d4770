import { compareSignals, type SpectralRunner } from '../analysis/compare.js';
import { integratedLoudness } from '../analysis/loudness.js';
import { InputError } from '../errors.js';
import { REPORT_SCHEMA, type AudioSource, type ParityReport } from '../report/report.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { DecodedWav } from './decode-wav.js';
import { downmixToMono } from './downmix.js';

export interface WavInput {
  /** The path as the user gave it; recorded in the report and named in errors. */
  path: string;
  decoded: DecodedWav;
}

export interface WavComparison {
  report: ParityReport;
  /**
   * The compared mono signals and A−B at lag 0 over the common length; `diff` is made on first read
   * (an import that only shows A and B never builds it).
   */
  a: Float32Array;
  b: Float32Array;
  readonly diff: Float32Array;
}

export interface CompareWavsOptions {
  maxLagMs?: number;
  /** ISO time written as createdAt (the caller owns the clock, for reproducible reports). */
  createdAt: string;
  /** Where the spectral distances run (CompareOptions.spectral); this thread when absent. */
  spectral?: SpectralRunner;
}

/**
 * Compares two decoded WAVs: both downmixed to mono by the stated rule, then compareSignals; loudness is
 * measured over every channel (BS.1770), the downmix's kept as loudnessDownmixA/B. Sample
 * rates must match: no resampling is done, because a resampler's own error would be measured as a
 * parity difference.
 */
export async function compareWavs(
  a: WavInput,
  b: WavInput,
  options: CompareWavsOptions,
): Promise<WavComparison> {
  const rateA = a.decoded.sampleRate;
  const rateB = b.decoded.sampleRate;
  if (rateA !== rateB) {
    throw new InputError(
      `sample rates differ: ${a.path} is ${rateA} Hz, ${b.path} is ${rateB} Hz; resampling is not done, convert one first (e.g. sox ${b.path} -r ${rateA} out.wav)`,
    );
  }
  const monoA = downmixToMono(a.decoded);
  const monoB = downmixToMono(b.decoded);
  const { metrics, curves } = await compareSignals(monoA.signal, monoB.signal, rateA, {
    maxLagMs: options.maxLagMs,
    channels: { a: a.decoded.channels, b: b.decoded.channels },
    spectral: options.spectral,
  });
  const report: ParityReport = {
    schema: REPORT_SCHEMA,
    createdAt: options.createdAt,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    sources: { a: source(a, monoA.rule), b: source(b, monoB.rule) },
    metrics,
    curves,
  };
  let diff: Float32Array | undefined;
  return {
    report,
    a: monoA.signal,
    b: monoB.signal,
    get diff() {
      diff ??= difference(monoA.signal, monoB.signal);
      return diff;
    },
  };
}

function source({ path, decoded }: WavInput, downmix: string): AudioSource {
  const result: AudioSource = {
    path,
    sampleRate: decoded.sampleRate,
    channels: decoded.channels.length,
    format: decoded.format,
    downmix,
  };
  // BS.1770 measures a multichannel programme as the weighted sum over channels, not its downmix.
  if (decoded.channels.length > 1)
    result.loudnessAllChannels = integratedLoudness(decoded.channels, decoded.sampleRate);
  if (decoded.warnings.length) result.warnings = decoded.warnings;
  return result;
}

function difference(a: Float32Array, b: Float32Array): Float32Array {
  const length = Math.min(a.length, b.length);
  const diff = new Float32Array(length);
  for (let i = 0; i < length; i++) diff[i] = a[i] - b[i];
  return diff;
}
