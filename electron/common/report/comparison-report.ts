import { z } from 'zod';
import { Sampling } from '../api/primitives.js';
import { Baseline } from '../forensics/baseline.js';
import { Divergence } from '../forensics/divergence.js';
import { TeacherForcedDrift } from '../forensics/drift.js';
import { SeamReport } from '../forensics/seams.js';
import { FaultOutcome } from '../forensics/fault-outcomes.js';
import { Tolerances } from '../forensics/tolerances.js';
import { StageCounts, StepRecord } from '../trace/step-record.js';
import { TraceHeader } from '../trace/trace-format.js';
import { DrillReport } from './drill.js';
import { EndpointComparison } from './endpoint-exchange.js';
import { JsonNumber } from './json-number.js';
import { ModuleDrillReport } from './module-drill.js';
import { Metrics } from './metrics.js';
import { AudioSource, LoudnessCurves, ParityReport, REPORT_SCHEMA, Verdict } from './report.js';

/**
 * Additive extensions of `tts-parity-report/1` for comparisons of two execution profiles (engine) and
 * of two imported traces. A comparison report holds everything needed to re-run it (`rerun`) and the
 * sha256 of the fixture files beside it (`integrity`), so `parity gate` can re-run and detect edits.
 */

/** One profile as actually run. */
export const ComparisonSide = z.object({
  /** Canonical profile text as asked for. */
  profile: z.string(),
  executionProvider: z.string(),
  /** Why the provider asked for did not run (present only when one was refused). */
  fallback: z.string().optional(),
  /** batch=N only: the rows the batched exports ran with — N, or the graph bucket N was padded to. */
  batchRows: z.number().int().positive().optional(),
  /** Per-stage times in ms; arrays are per step (index 0 = step 1). */
  timings: z.record(z.string(), z.union([JsonNumber, z.array(JsonNumber)])),
  /** Non-finite values per stage over the whole synthesis. */
  numerics: z.object({ nan: StageCounts, inf: StageCounts }),
  sampleRate: z.number().int().positive(),
  frameRate: z.number().positive(),
  frames: z.number().int().nonnegative(),
  q: z.number().int().positive(),
  steps: z.array(StepRecord),
  /** One per fault of the profile: applied or not, and why not (absent when the profile has no fault). */
  faults: z.array(FaultOutcome).optional(),
});
export type ComparisonSide = z.infer<typeof ComparisonSide>;

/** Everything `parity gate` needs to run the comparison again. */
export const RerunSpec = z.object({
  text: z.string(),
  /** The bundle folder as given (relative to the folder the comparison ran in), or "demo" for the embedded demo bundle (built on first use). */
  bundle: z.string(),
  /**
   * Written with a fixture folder: the bundle folder as `parity gate` finds it, relative to the fixture
   * folder (`./…`, `../…`) when given relative, else absolute; absent for the demo bundle (fixture-bundle.ts).
   */
  bundleFromFixture: z.string().optional(),
  bundleHash: z.string(),
  profileA: z.string(),
  profileB: z.string(),
  seed: z.number().int().nonnegative(),
  sampling: Sampling,
  tolerances: Tolerances,
  /** Tool, Node, ONNX Runtime versions (name → version). */
  versions: z.record(z.string(), z.string()),
  /** Present when the comparison ran `--drill`: gate re-runs the drill-down too (tolerance = `--drill-tol`, absent = default). */
  drill: z.object({ tolerance: z.number().nonnegative().optional() }).optional(),
  /** Present (true) when B was fed A's codes (`--teacher-force`): gate re-runs it so. */
  teacherForce: z.boolean().optional(),
  /** Present (true) when the comparison ran `--baseline`: each profile was run twice. */
  baseline: z.boolean().optional(),
});
export type RerunSpec = z.infer<typeof RerunSpec>;

/** sha256 (hex) of each fixture file written with the report, and of the report itself (see fixture-integrity.ts). */
export const Integrity = z.object({
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  /** sha256 of report.json as written with this field set to "" (so an edit anywhere is detected). */
  reportSha256: z.string(),
});
export type Integrity = z.infer<typeof Integrity>;

export const VERDICT_RULE =
  'identical: audio compared and bit-identical, and every step equal (codes and logit statistics exactly, none missing on either side: divergence.compared); ' +
  'within-tolerance: codes equal at every step, logit statistics within tolerances.logitAbs/logitRel, ' +
  'every audio sample within tolerances.audioAbs and the same length (or audio not compared: divergence.audioCompared false); ' +
  'degenerate-audio: nothing diverged, but a take is digital silence, a constant, non-finite or near-silent (metrics.audio): never a match; ' +
  'diverged: anything else';

export const ComparisonReport = ParityReport.extend({
  kind: z.literal('profiles'),
  verdict: Verdict,
  verdictRule: z.string(),
  a: ComparisonSide,
  b: ComparisonSide,
  divergence: Divergence,
  rerun: RerunSpec,
  integrity: Integrity.optional(),
  /** `parity compare --drill`: the first node inside the first divergent step (drill.ts). */
  drill: DrillReport.optional(),
  /** `parity compare --baseline`: each profile against a second run of itself (baseline.ts). */
  baseline: Baseline.optional(),
  /** `--teacher-force`: B was fed A's codes; B's drift per step and its would-flips (drift.ts). */
  teacherForced: TeacherForcedDrift.optional(),
  /** A or B ran vocoder=stream: discontinuities of B − A at the chunk boundaries (seams.ts). */
  seams: SeamReport.optional(),
});
export type ComparisonReport = z.infer<typeof ComparisonReport>;

/** Two imported traces (any engine), with or without their audio. */
export const TraceComparisonReport = z
  .object({
    schema: z.literal(REPORT_SCHEMA),
    kind: z.literal('traces'),
    createdAt: z.string(),
    tool: z.object({ name: z.string(), version: z.string() }),
    traces: z.object({
      a: z.object({ file: z.string(), header: TraceHeader }),
      b: z.object({ file: z.string(), header: TraceHeader }),
    }),
    sources: z.object({ a: AudioSource, b: AudioSource }).optional(),
    metrics: Metrics.optional(),
    curves: LoudnessCurves.optional(),
    verdict: Verdict,
    verdictRule: z.string(),
    divergence: Divergence,
    /** What the two trace headers disagree on without making the comparison meaningless (frameRate, sampleRate). */
    warnings: z.array(z.string()).optional(),
    integrity: Integrity.optional(),
    /** Both traces came with module sidecars: the first module output that differs in the first divergent step (module-drill.ts). */
    moduleDrill: ModuleDrillReport.optional(),
    /** A trace header says it was teacher-forced (`teacherForced`): the drift of that side (drift.ts). */
    teacherForced: TeacherForcedDrift.optional(),
    /** The traces came from two speech endpoints' recorders: what was sent and what came back (endpoint-exchange.ts). */
    endpoints: EndpointComparison.optional(),
  })
  .loose();
export type TraceComparisonReport = z.infer<typeof TraceComparisonReport>;

/**
 * What the history keeps and a ComparisonResult carries: a report with audio metrics (WAV pairs,
 * profile comparisons, traces with their WAVs) or two traces' localisation without audio.
 */
export const StoredReport = z.union([ParityReport, TraceComparisonReport]);
export type StoredReport = z.infer<typeof StoredReport>;
