import { countNonFinite } from '../../common/trace/logit-stats.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import type { SynthesisPlan } from '../synthesize.js';
import type { SynthesisOptions } from '../types.js';
import { decodeFrames } from './vocoder-runner.js';

/**
 * vocoder=full: one run over every frame. vocoder=stream: chunks of `chunkFrames` frames, each
 * re-decoding up to `leftContextFrames` earlier frames as left context and starting from the phase
 * the previous chunk ended on; fault no-left-context drops both (context 0, phase 0).
 * NaN/Inf counts of the audio are added to each frame's step record (stage vocoder).
 */
export async function runVocoder(
  plan: SynthesisPlan,
  codes: Int32Array,
  frames: number,
  steps: StepRecord[],
  checkAbort: () => void,
  opts: SynthesisOptions,
  poisonStep?: number,
): Promise<Float32Array> {
  const m = plan.manifest;
  const hop = m.hopLength;
  const shape = { codebooks: m.codebooks, hop };
  const poison = poisonStep === undefined ? undefined : poisonStep - 1;
  const audio = new Float32Array(frames * hop);
  if (plan.profile.vocoder === 'full') {
    opts.onProgress?.({ stage: 'vocoder', step: 0, totalSteps: 1 });
    const out = await decodeFrames(plan.vocoder, shape, plan.clock, codes, 0, frames, 0, 0, poison);
    audio.set(out.audio);
    opts.onAudioChunk?.(out.audio, 0);
    opts.onProgress?.({ stage: 'vocoder', step: 1, totalSteps: 1 });
  } else {
    const chunk = m.vocoder.chunkFrames;
    const noContext = plan.profile.faults.some((f) => f.kind === 'no-left-context');
    const total = Math.ceil(frames / chunk);
    let phase = 0;
    for (let start = 0, i = 0; start < frames; start += chunk, i++) {
      checkAbort();
      const end = Math.min(frames, start + chunk);
      const context = noContext ? 0 : Math.min(m.vocoder.leftContextFrames, start);
      const out = await decodeFrames(plan.vocoder, shape, plan.clock, codes, start - context, end, context, noContext ? 0 : phase, poison);
      phase = out.endPhase;
      audio.set(out.audio, start * hop);
      opts.onAudioChunk?.(out.audio, start * hop);
      opts.onProgress?.({ stage: 'vocoder', step: i + 1, totalSteps: total });
    }
  }
  for (let f = 0; f < frames; f++) {
    const c = countNonFinite(audio.subarray(f * hop, (f + 1) * hop));
    const r = steps[f];
    if (r.nan) r.nan.vocoder = c.nan;
    if (r.inf) r.inf.vocoder = c.inf;
  }
  return audio;
}
