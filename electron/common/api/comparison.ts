import { z } from 'zod';
import { DEFAULT_MAX_LAG_MS } from '../analysis/lag-range.js';
import { DrillReport } from '../report/drill.js';
import { StoredReport } from '../report/comparison-report.js';
import { AbxSession } from './abx.js';
import { Audio, HistoryId, ImportFile, ProfileText, PromptText, Sampling, Seed, UploadRef } from './primitives.js';

export const CompareRequest = z.object({
  text: PromptText,
  profileA: ProfileText,
  profileB: ProfileText,
  seed: Seed.default(0),
  sampling: Sampling.default(Sampling.parse({})),
  /** Feed B A's codes at every step (docs/forensics.md "Teacher forcing"): the report gains `teacherForced`. */
  teacherForce: z.boolean().optional(),
});
export type CompareRequest = z.infer<typeof CompareRequest>;

/** A finished comparison as kept in history: the report (with or without audio metrics) and both renderings. */
export const ComparisonResult = z.object({
  historyId: HistoryId,
  report: StoredReport,
  /** Absent when the comparison came from traces without audio. */
  a: Audio.optional(),
  b: Audio.optional(),
  /** The last ABX blind test saved with this comparison. */
  abx: AbxSession.optional(),
  /** The last drill-down into the first divergent step, saved with this comparison. */
  drill: DrillReport.optional(),
});
export type ComparisonResult = z.infer<typeof ComparisonResult>;

export const ImportWavsRequest = z.object({
  a: ImportFile,
  b: ImportFile,
  /** Largest lag searched when aligning B to A (the CLI's default, so a studio import and compare-wav agree). */
  maxLagMs: z.number().nonnegative().max(10_000).default(DEFAULT_MAX_LAG_MS),
  /**
   * The caller decoded the two files itself (the studio page, to draw them at once): the result leaves out
   * `a` and `b` rather than send both renderings back (for 10 minutes at 24 kHz, 115 MB).
   */
  withoutAudio: z.boolean().optional(),
});
export type ImportWavsRequest = z.infer<typeof ImportWavsRequest>;

/**
 * Two `tts-parity-trace/1` files (JSON Lines) from any engines, compared step by step; with both runs'
 * WAVs the audio is measured too and the vocoder stage checked (as `parity compare-trace --wav-a --wav-b`).
 */
/** A trace of an import: its file name and text, or uploaded to browser mode's server beforehand. */
export const TraceInput = z.union([z.object({ name: z.string().min(1).max(500), text: z.string().max(200_000_000) }), UploadRef]);
export type TraceInput = z.infer<typeof TraceInput>;

export const ImportTracesRequest = z.object({
  a: TraceInput,
  b: TraceInput,
  wavA: ImportFile.optional(),
  wavB: ImportFile.optional(),
  /**
   * The runs' module sidecars (`*.modules.safetensors`, docs/python-modules.md), both or neither: with
   * them the report names the first module whose output differs (`moduleDrill`), as compare-trace does.
   */
  modulesA: ImportFile.optional(),
  modulesB: ImportFile.optional(),
  /** Largest lag searched when aligning B's audio to A's. */
  maxLagMs: z.number().nonnegative().max(10_000).default(DEFAULT_MAX_LAG_MS),
});
export type ImportTracesRequest = z.infer<typeof ImportTracesRequest>;
