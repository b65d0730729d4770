import { compareSignals, type SpectralRunner } from '../analysis/compare.js';
import { InputError } from '../errors.js';
import type { AudioSource } from '../report/report.js';
import { REPORT_SCHEMA } from '../report/report.js';
import { VERDICT_RULE, type TraceComparisonReport } from '../report/comparison-report.js';
import type { Trace, TraceHeader } from '../trace/trace-format.js';
import type { TraceStep } from '../trace/step-record.js';
import type { StepComparison } from './divergence.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { oneSidedWarnings, type ComparedFields } from './compared-fields.js';
import { DriftCurve } from './drift.js';
import { Localiser, type LocaliseOptions } from './localise.js';
import { DEFAULT_NEAR_TIE_GAP } from './near-tie.js';
import type { Tolerances } from './tolerances.js';
import { verdictOf } from './verdict.js';

export interface TraceSide {
  file: string;
  trace: Trace;
  /** The run's audio, mono, at the trace header's sample rate, and how it was obtained. */
  audio?: { signal: Float32Array; source: AudioSource };
}

/** A side whose steps come separately (compareTraceSteps): its header and step count only. */
export interface TraceSideHeader {
  file: string;
  header: TraceHeader;
  steps: number;
  audio?: TraceSide['audio'];
}

/** Step N of A and of B, undefined past a run's end. */
export type StepPair = readonly [TraceStep | undefined, TraceStep | undefined];

export interface CompareTracesOptions {
  createdAt: string;
  tolerances?: Partial<Omit<Tolerances, 'codes'>>;
  maxLagMs?: number;
  /** Where the spectral distances run (CompareOptions.spectral); this thread when absent. */
  spectral?: SpectralRunner;
}

/**
 * What the two headers disagree on. A different q is refused (codebook c of one is not codebook c of
 * the other, so codes cannot be compared), as are WAVs at two sample rates (no sample-by-sample
 * comparison exists); a different frame rate or a sample rate with no audio compared only changes how
 * steps map to time, so it is a warning and A's rates are used.
 */
function headerWarnings(a: TraceSideHeader, b: TraceSideHeader): string[] {
  const ha = a.header;
  const hb = b.header;
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
  const side = (s: TraceSide): TraceSideHeader => ({ file: s.file, header: s.trace.header, steps: s.trace.steps.length, audio: s.audio });
  const total = Math.max(a.trace.steps.length, b.trace.steps.length);
  const pairs = (function* (): Generator<StepPair> {
    for (let i = 0; i < total; i++) yield [a.trace.steps[i], b.trace.steps[i]];
  })();
  return (await compareTraceSteps(side(a), side(b), pairs, options, () => true)).report;
}

/** What compareTraceSteps made: the report, and how to localise the same steps again (their rows: traceStepRows). */
export interface TraceStepsComparison {
  report: TraceComparisonReport;
  localise: { stepsA: number; stepsB: number; options: LocaliseOptions };
}

/**
 * compareTraces over steps that come one pair at a time (`pairs`, step 1 up to the longer run), so
 * traces read as a stream are compared without holding them. The report's `divergence.steps` holds
 * the rows `keep` accepts, at their index, and has the full length (rows not kept are holes).
 */
export async function compareTraceSteps(
  a: TraceSideHeader,
  b: TraceSideHeader,
  pairs: Iterable<StepPair> | AsyncIterable<StepPair>,
  options: CompareTracesOptions,
  keep: (row: StepComparison) => boolean,
): Promise<TraceStepsComparison> {
  const ha = a.header;
  const hb = b.header;
  if ((a.audio === undefined) !== (b.audio === undefined)) throw new InputError('give both WAVs (--wav-a and --wav-b) or neither');
  for (const side of [a, b]) {
    if (side.audio && side.audio.source.sampleRate !== side.header.sampleRate) {
      throw new InputError(
        `${side.audio.source.path ?? 'audio'} is ${side.audio.source.sampleRate} Hz but ${side.file} says sampleRate ${side.header.sampleRate}`,
      );
    }
  }
  const warnings = headerWarnings(a, b);
  const audio = a.audio && b.audio ? { a: a.audio.signal, b: b.audio.signal, sampleRate: ha.sampleRate } : undefined;
  const codebookDelays = ha.codebookDelays ?? hb.codebookDelays;
  const vocoderChunks = { a: ha.vocoderChunks, b: hb.vocoderChunks };
  const localiseOptions: LocaliseOptions = { tolerances: options.tolerances, frameRate: ha.frameRate, audio, codebookDelays, vocoderChunks };
  const localiser = new Localiser(a.steps, b.steps, localiseOptions);
  const teacherForced = ha.teacherForced !== undefined || hb.teacherForced !== undefined;
  const drift = teacherForced ? new DriftCurve(localiser.tolerances.nearTieGap ?? DEFAULT_NEAR_TIE_GAP) : undefined;
  const steps: StepComparison[] = [];
  for await (const [x, y] of pairs) {
    const row = localiser.add(x, y);
    if (x && y) drift?.add(x, y);
    if (keep(row)) steps[row.step - 1] = row;
  }
  steps.length = localiser.total;
  const divergence = localiser.result(steps);
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
  if (drift) report.teacherForced = drift.result();
  if (a.audio && b.audio) {
    const { metrics, curves } = await compareSignals(a.audio.signal, b.audio.signal, ha.sampleRate, { maxLagMs: options.maxLagMs, spectral: options.spectral });
    Object.assign(report, { sources: { a: a.audio.source, b: b.audio.source }, metrics, curves });
  }
  report.verdict = verdictOf(divergence, report.metrics, localiser.statsExact);
  return { report, localise: { stepsA: a.steps, stepsB: b.steps, options: localiseOptions } };
}
