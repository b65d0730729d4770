import type { EngineRatios, ProfileBench, Spread } from './bench-results.js';

/** What one synthesis contributes to a profile's figures (taken from SynthesisResult.timings). */
export interface SynthesisSample {
  totalMs: number;
  /** From the synthesize call to the first audio chunk, ms. */
  firstAudioMs: number;
  audioSeconds: number;
  frames: number;
  talkerPrefillMs: number;
  /** Per decode step (step ≥ 2), ms. */
  talkerStepMs: number[];
  codePredictorFrameMs: number[];
  vocoderMs: number;
  /** session.run time inside the talker and code-predictor steps, ms. */
  stepSessionRunMs: number;
}

/** The profiles the bench runs, in this order; ratios read the first four. */
export const BENCH_PROFILES = ['eager', 'graph', 'graph,vocoder=stream', 'graph,cache=recompute'] as const;

/** Linear-interpolated quantile (numpy's default) of a non-empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('quantile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);
const spread = (values: readonly number[]): Spread => ({ median: quantile(values, 0.5), p90: quantile(values, 0.9) });
const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** One profile's figures from its repetitions: per-run medians, step times pooled over runs. */
export function summariseProfile(samples: readonly SynthesisSample[]): ProfileBench {
  if (samples.length === 0) throw new RangeError('summariseProfile: no samples');
  const stepTotal = sum(samples.map((s) => s.talkerPrefillMs + sum(s.talkerStepMs) + sum(s.codePredictorFrameMs)));
  const stepRun = sum(samples.map((s) => s.stepSessionRunMs));
  return {
    talkerPrefillMs: median(samples.map((s) => s.talkerPrefillMs)),
    talkerStepMs: spread(samples.flatMap((s) => s.talkerStepMs)),
    codePredictorFrameMs: spread(samples.flatMap((s) => s.codePredictorFrameMs)),
    vocoderMsPerAudioSecond: median(samples.map((s) => s.vocoderMs / s.audioSeconds)),
    rtf: median(samples.map((s) => s.totalMs / 1000 / s.audioSeconds)),
    firstAudioMs: median(samples.map((s) => s.firstAudioMs)),
    jsOverheadShare: stepTotal > 0 ? Math.max(0, 1 - stepRun / stepTotal) : 0,
    frames: samples[0].frames,
  };
}

/** Ratios of medians from the same interleaved run: > 1 means the second-named side is faster. */
export function engineRatios(p: Record<(typeof BENCH_PROFILES)[number], ProfileBench>): EngineRatios {
  return {
    graphVsEagerTalkerStep: p.eager.talkerStepMs.median / p.graph.talkerStepMs.median,
    graphVsEagerCodePredictorFrame: p.eager.codePredictorFrameMs.median / p.graph.codePredictorFrameMs.median,
    kvVsRecomputeStep: p['graph,cache=recompute'].talkerStepMs.median / p.graph.talkerStepMs.median,
  };
}
