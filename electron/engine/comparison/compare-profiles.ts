import { compareSignals, type SpectralRunner } from '../../common/analysis/compare.js';
import { CancelledError, InputError } from '../../common/errors.js';
import { faultOutcomes } from '../../common/forensics/fault-outcomes.js';
import { teacherForcedDrift } from '../../common/forensics/drift.js';
import { localise } from '../../common/forensics/localise.js';
import { DEFAULT_NEAR_TIE_GAP } from '../../common/forensics/near-tie.js';
import { findSeams } from '../../common/forensics/seams.js';
import { DEFAULT_TOLERANCES, type Tolerances } from '../../common/forensics/tolerances.js';
import { verdictOf } from '../../common/forensics/verdict.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { VERDICT_RULE, type ComparisonReport, type ComparisonSide } from '../../common/report/comparison-report.js';
import { REPORT_SCHEMA, type AudioSource } from '../../common/report/report.js';
import type { SamplingParams } from '../../common/sampling/types.js';
import { TOOL_NAME, TOOL_VERSION } from '../../common/version.js';
import type { ExecutionProfile } from '../../common/profile/types.js';
import type { BundleInfo, Engine, SynthesisResult } from '../engine.js';

export interface CompareProfilesRequest {
  text: string;
  profileA: string;
  profileB: string;
  seed: number;
  sampling: SamplingParams;
  /** Recorded for re-runs: the bundle folder as given, or "demo". */
  bundle: string;
  tolerances?: Partial<Omit<Tolerances, 'codes'>>;
  maxLagMs?: number;
  /** Teacher forcing: B is fed A's codes (SynthesisOptions.teacherCodes); the report gains `teacherForced`. */
  teacherForce?: boolean;
}

export interface CompareProgress {
  side: 'A' | 'B';
  stage: 'talker' | 'vocoder';
  step: number;
  totalSteps: number;
}

export interface CompareProfilesOptions {
  signal?: AbortSignal;
  onProgress?: (p: CompareProgress) => void;
  createdAt: string;
  /** Extra name → version pairs recorded in rerun.versions (e.g. onnxruntime-node). */
  versions?: Record<string, string>;
  /** Where the spectral distances run (CompareOptions.spectral); this thread when absent. */
  spectral?: SpectralRunner;
}

export interface ProfileComparison {
  report: ComparisonReport;
  resultA: SynthesisResult;
  resultB: SynthesisResult;
  /** A − B at lag 0 over the common length. */
  diff: Float32Array;
}

/**
 * Renders the same text with two profiles (same seed and sampling, so the counter-based generator
 * draws the same numbers at the same step), localises the first divergence from the two step traces
 * and the audio, measures the audio (compareSignals) and states the verdict by VERDICT_RULE.
 */
export async function compareProfiles(engine: Engine, req: CompareProfilesRequest, opts: CompareProfilesOptions): Promise<ProfileComparison> {
  const profileA = parseProfile(req.profileA);
  const profileB = parseProfile(req.profileB);
  if (req.teacherForce) refuseNativeTeacherForcing(profileB);
  engine.checkRunnable(profileA, req.sampling);
  engine.checkRunnable(profileB, req.sampling);
  const run = (side: 'A' | 'B', profile: typeof profileA, teacherCodes?: Int32Array) =>
    engine.synthesize(
      { text: req.text, profile, seed: req.seed, sampling: req.sampling },
      { signal: opts.signal, onProgress: (p) => opts.onProgress?.({ side, ...p }), ...(teacherCodes ? { teacherCodes } : {}) },
    );
  const resultA = await run('A', profileA);
  if (opts.signal?.aborted) throw new CancelledError();
  const resultB = await run('B', profileB, req.teacherForce ? resultA.codes : undefined);
  const info = engine.info();
  const tolerances: Tolerances = { ...DEFAULT_TOLERANCES, ...req.tolerances, codes: 'exact' };
  // A delay-pattern bundle's steps are its raw emission: the divergence is reported at its frame too.
  const codebookDelays = resultA.codebookDelays;
  const divergence = localise(resultA.steps, resultB.steps, {
    tolerances,
    frameRate: info.frameRate,
    audio: { a: resultA.audio, b: resultB.audio, sampleRate: info.sampleRate },
    ...(codebookDelays ? { codebookDelays } : {}),
  });
  if (codebookDelays) divergence.codebookDelays = [...codebookDelays];
  const { metrics, curves } = await compareSignals(resultA.audio, resultB.audio, info.sampleRate, { maxLagMs: req.maxLagMs, spectral: opts.spectral });
  const report: ComparisonReport = {
    schema: REPORT_SCHEMA,
    kind: 'profiles',
    createdAt: opts.createdAt,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    sources: { a: source(resultA), b: source(resultB) },
    metrics,
    curves,
    verdict: verdictOf(divergence, metrics),
    verdictRule: VERDICT_RULE,
    a: side(resultA, profileA, info),
    b: side(resultB, profileB, info),
    divergence,
    rerun: {
      text: req.text,
      bundle: req.bundle,
      bundleHash: resultA.bundleHash,
      profileA: profileA.text,
      profileB: profileB.text,
      seed: req.seed,
      sampling: req.sampling,
      tolerances,
      versions: { [TOOL_NAME]: TOOL_VERSION, node: process.versions.node, ...opts.versions },
    },
  };
  if (profileA.vocoder === 'stream' || profileB.vocoder === 'stream') {
    const rates = { sampleRate: info.sampleRate, frameRate: info.frameRate };
    report.seams = findSeams(resultA.audio, resultB.audio, { ...rates, chunkFrames: info.vocoder.chunkFrames, audioAbs: tolerances.audioAbs });
  }
  if (req.teacherForce) {
    report.rerun.teacherForce = true;
    report.teacherForced = teacherForcedDrift(resultA.steps, resultB.steps, tolerances.nearTieGap ?? DEFAULT_NEAR_TIE_GAP);
  }
  return { report, resultA, resultB, diff: difference(resultA.audio, resultB.audio) };
}

function source(r: SynthesisResult): AudioSource {
  return { sampleRate: r.sampleRate, channels: 1, format: 'float32', downmix: `mono (synthesized, profile ${r.profile})` };
}

function side(r: SynthesisResult, profile: ExecutionProfile, info: BundleInfo): ComparisonSide {
  const s: ComparisonSide = {
    profile: r.profile,
    executionProvider: r.executionProvider,
    timings: { ...r.timings },
    numerics: r.numerics,
    sampleRate: r.sampleRate,
    frameRate: info.frameRate,
    frames: r.frames,
    q: r.q,
    steps: r.steps,
  };
  if (r.fallback !== undefined) s.fallback = r.fallback;
  if (r.batchRows !== undefined) s.batchRows = r.batchRows;
  // The native backend does not record outcomes; the rule is the same (fault-outcomes.ts).
  const faults = r.faults ?? faultOutcomes(profile, r.frames, info.vocoder.chunkFrames, info.vocoder.leftContextFrames);
  if (faults.length > 0) s.faults = faults;
  return s;
}

export function difference(a: Float32Array, b: Float32Array): Float32Array {
  const n = Math.min(a.length, b.length);
  const diff = new Float32Array(n);
  for (let i = 0; i < n; i++) diff[i] = a[i] - b[i];
  return diff;
}

/** The native backend runs its own loop, with no teacher-forcing hook: refused rather than silently unforced. */
function refuseNativeTeacherForcing(profile: ExecutionProfile): void {
  if (profile.backend === 'native') {
    throw new InputError(`teacher forcing: profile B "${profile.text}" runs on the native backend, which cannot be fed A's codes (use backend=ort)`);
  }
}
