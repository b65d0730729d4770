import type { Audio, BundleInfo, CompareRequest, JobProgress, SynthesisResult, SynthesizeRequest } from '../../common/api/index.js';
import { parseProfile, PRESETS } from '../../common/profile/parse-profile.js';
import type { ParityReport } from '../../common/report/report.js';
import { BUNDLE_FORMAT } from '../../engine/bundle/manifest.js';
import { compareProfiles, type CompareProgress } from '../../engine/comparison/compare-profiles.js';
import { openEngine } from '../../engine/comparison/open-engine.js';
import type { Engine, SynthesisProgress } from '../../engine/engine.js';
import type { TaskControl } from './run-task.js';
import { processSpectralRunner } from '../spectral/process-spectral-thread.js';

/** What the worker's `compare` task returns to the host. */
export interface EngineCompareResult {
  profileA: string;
  profileB: string;
  report: ParityReport;
  a: Audio;
  b: Audio;
}

let opened: Promise<{ engine: Engine; bundle: string }> | undefined;

/** Opens the engine once per worker; a failed open is retried by the next task rather than cached. */
export function engineFor(bundleDir: string | undefined, control: TaskControl) {
  if (!opened) {
    control.onProgress({ phase: 'load', step: 0, totalSteps: 0, fraction: 0, message: 'opening the model bundle' });
    opened = openEngine(bundleDir).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
  }
  return opened;
}

export async function bundleInfoTask(bundleDir: string | undefined, control: TaskControl): Promise<BundleInfo> {
  const { engine, bundle } = await engineFor(bundleDir, control);
  const info = engine.info();
  return {
    ...info,
    format: BUNDLE_FORMAT,
    demo: bundle === 'demo',
    executionProviders: ['cpu'],
    presets: [...PRESETS],
  };
}

export async function synthesizeTask(bundleDir: string | undefined, request: SynthesizeRequest, control: TaskControl): Promise<SynthesisResult> {
  const { engine } = await engineFor(bundleDir, control);
  const r = await engine.synthesize(
    { text: request.text, profile: parseProfile(request.profile), seed: request.seed, sampling: request.sampling },
    { signal: control.signal, onProgress: (p) => control.onProgress(toProgress('synthesize', p, 0, 1)) },
  );
  return {
    profile: r.profile,
    audio: { sampleRate: r.sampleRate, samples: r.audio },
    frames: r.frames,
    codebooks: r.q,
    codes: r.codes,
    executionProvider: r.executionProvider,
    ...(r.fallback === undefined ? {} : { fallbackReason: r.fallback }),
    steps: r.steps,
    totalMs: r.timings.totalMs,
  };
}

export async function compareTask(bundleDir: string | undefined, request: CompareRequest, control: TaskControl): Promise<EngineCompareResult> {
  const { engine, bundle } = await engineFor(bundleDir, control);
  const { report, resultA, resultB } = await compareProfiles(
    engine,
    { ...request, bundle },
    {
      signal: control.signal,
      createdAt: new Date().toISOString(),
      onProgress: (p: CompareProgress) => control.onProgress(toProgress(p.side, p, p.side === 'A' ? 0 : 0.5, 0.5)),
      spectral: processSpectralRunner(),
    },
  );
  control.onProgress({ phase: 'compare', step: 0, totalSteps: 0, fraction: 1, message: 'measuring and localising' });
  return {
    profileA: resultA.profile,
    profileB: resultB.profile,
    report: report as ParityReport,
    a: { sampleRate: resultA.sampleRate, samples: resultA.audio },
    b: { sampleRate: resultB.sampleRate, samples: resultB.audio },
  };
}

/** The talker's steps fill 90 % of a side's share of the bar, the vocoder the rest. */
function toProgress(phase: JobProgress['phase'], p: SynthesisProgress, offset: number, share: number): JobProgress {
  const within = p.totalSteps > 0 ? Math.min(1, p.step / p.totalSteps) : 0;
  const done = p.stage === 'talker' ? 0.9 * within : 0.9 + 0.1 * within;
  return { phase, step: p.step, totalSteps: p.totalSteps, fraction: Math.min(1, offset + share * done), message: p.stage };
}
