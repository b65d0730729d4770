import { z } from 'zod';
import { AudioCheck } from './audio-check.js';
import { JsonNumber } from './json-number.js';

/** Waveform metrics that are recomputed after aligning B to A by the cross-correlation lag. */
export const WaveformMetrics = z.object({
  /** Samples compared: the common part of A and B (after alignment, the overlap). */
  comparedLength: z.number().int().nonnegative(),
  bitIdentical: z.boolean(),
  maxAbsDiff: JsonNumber,
  /** Pearson correlation at lag 0 of the compared part; NaN when either side is constant. */
  correlation: JsonNumber,
  /** RMS(A−B) / RMS(A) in dB; -Infinity when identical. */
  nullDepthDb: JsonNumber,
  /** 10·log10(ΣA² / Σ(A−B)²); Infinity when identical. */
  snrDb: JsonNumber,
  lsdDb: JsonNumber,
  mcdDb: JsonNumber,
});
export type WaveformMetrics = z.infer<typeof WaveformMetrics>;

/** The `metrics` object of a `tts-parity-report/1` (see docs/report-format.md). */
export const Metrics = WaveformMetrics.extend({
  sampleRate: z.number().int().positive(),
  lengthA: z.number().int().nonnegative(),
  lengthB: z.number().int().nonnegative(),
  /** lengthB − lengthA in samples. */
  lengthDifference: z.number().int(),
  /** Peak normalised cross-correlation over the searched lag range. */
  xcorrPeak: JsonNumber,
  /** B is late by this many samples when positive (B[n + lag] ≈ A[n]). */
  lagSamples: z.number().int(),
  lagMs: JsonNumber,
  maxLagMs: JsonNumber,
  /**
   * |xcorrPeak| ≥ 0.5 (lag-reliability.ts): B is a shifted copy of A, so the lag, gain and matched null
   * mean a shift and a level difference; false: they are labelled unreliable everywhere. Absent in
   * reports written before it was added (readers apply the rule to xcorrPeak).
   */
  lagReliable: z.boolean().optional(),
  /** Sub-sample lag from a parabolic fit of the cross-correlation peak. */
  fractionalLagSamples: JsonNumber,
  /** Least-squares gain g that best maps B onto A (g·B ≈ A), as 20·log10(g) dB. */
  gainDb: JsonNumber,
  /** Null depth after removing the gain and the sub-sample lag. */
  matchedNullDepthDb: JsonNumber,
  /** Integrated loudness, ITU-R BS.1770-4 (LUFS); -Infinity when everything is gated out. */
  loudnessA: JsonNumber,
  loudnessB: JsonNumber,
  /** loudnessB − loudnessA in LU. */
  loudnessDeltaLU: JsonNumber,
  /**
   * Multichannel files only: the loudness of the mono downmix the waveform metrics compare. loudnessA/B
   * are BS.1770's all-channel loudness (weighted channel powers, LFE excluded, surrounds +1.5 dB).
   */
  loudnessDownmixA: JsonNumber.optional(),
  loudnessDownmixB: JsonNumber.optional(),
  /** Sample peak and RMS in dBFS. */
  peakA: JsonNumber,
  peakB: JsonNumber,
  rmsA: JsonNumber,
  rmsB: JsonNumber,
  aligned: WaveformMetrics.extend({ lagSamples: z.number().int() }),
  /**
   * Each take's condition (audio-check.ts): digital silence, a constant, non-finite or near-silent audio
   * is not compared, and no verdict over it is a match. Absent in reports written before it was added.
   */
  audio: AudioCheck.optional(),
});
export type Metrics = z.infer<typeof Metrics>;
