import { compareSignals } from '../analysis/compare.js';
import { InputError } from '../errors.js';
import type { AudioSource } from '../report/report.js';
import { REPORT_SCHEMA } from '../report/report.js';
import { VERDICT_RULE, type TraceComparisonReport } from '../report/comparison-report.js';
import type { Trace } from '../trace/trace-format.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { oneSidedWarnings, type ComparedFields } from './compared-fields.js';
import { teacherForcedDrift } from './drift.js';
import { localise } from './localise.js';
import { DEFAULT_NEAR_TIE_GAP } from './near-tie.js';
import type { Tolerances } from './tolerances.js';
import { verdictOf } from './verdict.js';

export interface TraceSide {
  file: string;
  trace: Trace;
  /** The run's audio, mono, at the trace header's sample rate, and how it was obtained. */
  audio?: { signal: Float32Array; source: AudioSource };
}

export interface CompareTracesOptions {
  createdAt: string;
  tolerances?: Partial<Omit<Tolerances, 'codes'>>;
  maxLagMs?: number;
}

/**
 * What the two headers disagree on. A different q is refused (codebook c of one is not codebook c of
 * the other, so codes cannot be compared), as are WAVs at two sample rates (no sample-by-sample
 * comparison exists); a different frame rate or a sample rate with no audio compared only changes how
 * steps map to time, so it is a warning and A's rates are used.
 */
function headerWarnings(a: TraceSide, b: TraceSide): string[] {
  const ha = a.trace.header;
  const hb = b.trace.header;
  if (ha.q !== hb.q) {
    throw new InputError(`the traces have different codebook counts, so their codes cannot be compared: ${a.file} q=${ha.q}, ${b.file} q=${hb.q}`);
  }
  const delaysA = JSON.stringify(ha.codebookDelays ?? null);
  const delaysB = JSON.stringify(hb.codebookDelays ?? null);
  if (delaysA !== delaysB) {
    const say = (d: number[] | undefined) => (d ? `[${d.join(', ')}]` : 'none');
    throw new InputError(`the traces have different delay patterns, so a step's codes belong to different frames: ${a.file} codebookDelays ${say(ha.codebookDelays)}, ${b.file} ${say(hb.codebookDelays)}`);
  }
  const warnings: string[] = [];
  if (ha.frameRate !== hb.frameRate) {
    warnings.push(`the trace headers disagree on frameRate: ${a.file} ${ha.frameRate}/s, ${b.file} ${hb.frameRate}/s; steps are compared by number and times use A's ${ha.frameRate}/s`);
  }
  if (ha.sampleRate !== hb.sampleRate) {
    if (a.audio && b.audio) {
      throw new InputError(
        `the runs' audio has different sample rates, so it cannot be compared sample by sample: ${a.audio.source.path ?? a.file} ${ha.sampleRate} Hz, ${b.audio.source.path ?? b.file} ${hb.sampleRate} Hz (resample one, or compare the traces without WAVs)`,
      );
    }
    warnings.push(`the trace headers disagree on sampleRate: ${a.file} ${ha.sampleRate} Hz, ${b.file} ${hb.sampleRate} Hz; no audio is compared, so only the steps are`);
  }
  return warnings;
}

/**
 * Two partial traces that record no field in common (A only means, B only codes) and come without audio
 * have nothing to compare: refused, rather than a verdict over no field at all.
 */
function refuseNothingShared(compared: ComparedFields | undefined, fileA: string, fileB: string, withAudio: boolean): void {
  if (!compared || compared.fields.length > 0 || withAudio) return;
  const list = (fields: string[]) => (fields.length > 0 ? fields.join(', ') : 'nothing');
  throw new InputError(
    `the traces record no field in common, so there is nothing to compare: ${fileA} has ${list(compared.missingB)}, ${fileB} has ${list(compared.missingA)} (record one field on both sides, or give both WAVs; docs/trace-format.md)`,
  );
}

/**
 * Localises where two traces from any engines part, and, when both WAVs come with them, measures the
 * audio as compare-wav does. Header disagreements are refused or recorded in `warnings` (headerWarnings).
 */
export async function compareTraces(a: TraceSide, b: TraceSide, options: CompareTracesOptions): Promise<TraceComparisonReport> {
  const ha = a.trace.header;
  const hb = b.trace.header;
  if ((a.audio === undefined) !== (b.audio === undefined)) throw new InputError('give both WAVs (--wav-a and --wav-b) or neither');
  for (const side of [a, b]) {
    if (side.audio && side.audio.source.sampleRate !== side.trace.header.sampleRate) {
      throw new InputError(
        `${side.audio.source.path ?? 'audio'} is ${side.audio.source.sampleRate} Hz but ${side.file} says sampleRate ${side.trace.header.sampleRate}`,
      );
    }
  }
  const warnings = headerWarnings(a, b);
  const audio = a.audio && b.audio ? { a: a.audio.signal, b: b.audio.signal, sampleRate: ha.sampleRate } : undefined;
  const codebookDelays = ha.codebookDelays ?? hb.codebookDelays;
  const divergence = localise(a.trace.steps, b.trace.steps, { tolerances: options.tolerances, frameRate: ha.frameRate, audio, codebookDelays });
  if (codebookDelays) divergence.codebookDelays = [...codebookDelays];
  if (divergence.compared) warnings.push(...oneSidedWarnings(divergence.compared, a.file, b.file));
  refuseNothingShared(divergence.compared, a.file, b.file, audio !== undefined);
  const report: TraceComparisonReport = {
    schema: REPORT_SCHEMA,
    kind: 'traces',
    createdAt: options.createdAt,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    traces: { a: { file: a.file, header: ha }, b: { file: b.file, header: hb } },
    verdict: 'diverged',
    verdictRule: VERDICT_RULE,
    divergence,
  };
  if (warnings.length > 0) report.warnings = warnings;
  if (ha.teacherForced !== undefined || hb.teacherForced !== undefined) {
    report.teacherForced = teacherForcedDrift(a.trace.steps, b.trace.steps, divergence.tolerances.nearTieGap ?? DEFAULT_NEAR_TIE_GAP);
  }
  if (a.audio && b.audio) {
    const { metrics, curves } = await compareSignals(a.audio.signal, b.audio.signal, ha.sampleRate, { maxLagMs: options.maxLagMs });
    Object.assign(report, { sources: { a: a.audio.source, b: b.audio.source }, metrics, curves });
  }
  report.verdict = verdictOf(divergence, report.metrics);
  return report;
}
