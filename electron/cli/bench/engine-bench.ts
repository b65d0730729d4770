import { parseProfile } from '../../common/profile/parse-profile.js';
import { GREEDY } from '../../common/sampling/types.js';
import type { Engine } from '../../engine/engine.js';
import type { SynthesisResult } from '../../engine/types.js';
import type { EngineBenchMeta, EngineRatios, ProfileBench } from './bench-results.js';
import { BENCH_PROFILES, engineRatios, summariseProfile, type SynthesisSample } from './engine-stats.js';

/** 40 characters: the prompt the issue's firstAudioMs and the docs' measured pairs use. */
export const BENCH_TEXT = 'Hello world, this is a parity test. 1234';

export interface EngineBenchOptions {
  /** Timed rounds (each runs every profile once, in a rotated order); default 8. */
  repetitions?: number;
  warmupRounds?: number;
  onStep?: (what: string) => void;
}

/** One synthesis, timed from the call, with the time of its first streamed audio chunk. */
export async function timedSynthesis(engine: Engine, profile: string, text = BENCH_TEXT): Promise<SynthesisSample> {
  let firstAudio = NaN;
  const t0 = performance.now();
  const r: SynthesisResult = await engine.synthesize(
    { text, profile: parseProfile(profile), seed: 1, sampling: GREEDY },
    { onAudioChunk: () => (Number.isNaN(firstAudio) ? (firstAudio = performance.now() - t0) : undefined) },
  );
  const t = r.timings;
  return {
    totalMs: t.totalMs,
    firstAudioMs: firstAudio,
    audioSeconds: r.audio.length / r.sampleRate,
    frames: r.frames,
    talkerPrefillMs: t.talkerPrefillMs,
    talkerStepMs: t.talkerStepMs.slice(1),
    codePredictorFrameMs: t.codePredictorFrameMs,
    vocoderMs: t.vocoderMs,
    stepSessionRunMs: t.stepSessionRunMs ?? t.sessionRunMs,
  };
}

/**
 * Every bench profile side by side in one process: warm-up rounds (sessions opened, JIT warm), then
 * `repetitions` rounds that each run all profiles once, the order rotated every round so no profile
 * always follows the same neighbour. Ratios come from these same runs.
 */
export async function benchEngine(
  engine: Engine,
  options: EngineBenchOptions = {},
): Promise<{ meta: Omit<EngineBenchMeta, 'bundleHash'>; profiles: Record<string, ProfileBench>; ratios: EngineRatios }> {
  const repetitions = Math.max(1, options.repetitions ?? 8);
  const warmupRounds = Math.max(1, options.warmupRounds ?? 2);
  const step = options.onStep ?? (() => {});
  const samples = new Map<string, SynthesisSample[]>(BENCH_PROFILES.map((p) => [p, []]));
  step(`engine, ${warmupRounds} warm-up + ${repetitions} interleaved rounds of ${BENCH_PROFILES.length} profiles`);
  for (let round = 0; round < warmupRounds + repetitions; round++) {
    for (let k = 0; k < BENCH_PROFILES.length; k++) {
      const profile = BENCH_PROFILES[(k + round) % BENCH_PROFILES.length];
      const sample = await timedSynthesis(engine, profile);
      if (round >= warmupRounds) samples.get(profile)?.push(sample);
    }
  }
  const profiles = Object.fromEntries(BENCH_PROFILES.map((p) => [p, summariseProfile(samples.get(p) ?? [])])) as Record<
    (typeof BENCH_PROFILES)[number],
    ProfileBench
  >;
  return { meta: { text: BENCH_TEXT, repetitions, warmupRounds }, profiles, ratios: engineRatios(profiles) };
}
