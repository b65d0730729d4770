import { faultOutcomes } from '../../common/forensics/fault-outcomes.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import { numericsTotals } from '../../common/trace/numerics-totals.js';
import type { SynthesisPlan } from '../synthesize.js';
import type { SynthesisRequest, SynthesisResult } from '../types.js';

/**
 * What every synthesis result says about its run, whatever the model's shape: the non-finite totals, the
 * provider (and a fallback, never silent), the profile and what became of its faults, seed, sampling and
 * bundle hash.
 */
export function runOutcome(
  plan: SynthesisPlan,
  req: SynthesisRequest,
  steps: StepRecord[],
  frames: number,
): Pick<SynthesisResult, 'numerics' | 'executionProvider' | 'fallback' | 'profile' | 'faults' | 'seed' | 'sampling' | 'bundleHash'> {
  const { vocoder } = plan.manifest;
  return {
    numerics: numericsTotals(steps),
    executionProvider: plan.provider,
    ...(plan.fallback ? { fallback: plan.fallback } : {}),
    profile: plan.profile.text,
    faults: faultOutcomes(plan.profile, frames, vocoder.chunkFrames, vocoder.leftContextFrames),
    seed: req.seed,
    sampling: req.sampling,
    bundleHash: plan.bundleHash,
  };
}
