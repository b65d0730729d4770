import { countNonFinite } from './logit-stats.js';
import type { StepRecord } from './step-record.js';

/**
 * Writes the vocoder stage's NaN/Inf counts into the step records: frame f's `hop` samples of
 * `audio` are counted into steps[f] (records without nan/inf counts are left as they are).
 */
export function recordVocoderCounts(audio: Float32Array, hop: number, frames: number, steps: StepRecord[]): void {
  for (let f = 0; f < frames; f++) {
    const c = countNonFinite(audio.subarray(f * hop, (f + 1) * hop));
    const r = steps[f];
    if (r.nan) r.nan.vocoder = c.nan;
    if (r.inf) r.inf.vocoder = c.inf;
  }
}
