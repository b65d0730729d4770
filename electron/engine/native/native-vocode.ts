import type { ExecutionProfile } from '../../common/profile/types.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import { recordVocoderCounts } from '../../common/trace/vocoder-counts.js';
import type { BundleManifest } from '../bundle/manifest.js';
import { dropsLeftContext, streamChunk } from '../run/stream-chunk.js';
import type { SynthesisOptions } from '../types.js';
import type { NativeSession } from './native-addon.js';

/**
 * The vocoder on the addon, driven like run/vocode.ts: vocoder=full in one call; vocoder=stream in
 * chunks of chunkFrames, each re-decoding up to leftContextFrames earlier frames and starting from the
 * phase the previous chunk ended on (fault no-left-context: neither). The noise is keyed by absolute
 * sample index, so a chunk sees the samples the whole decode sees. Adds per-frame vocoder NaN/Inf counts.
 */
export function nativeVocode(
  session: NativeSession,
  m: BundleManifest,
  profile: ExecutionProfile,
  codes: Int32Array,
  frames: number,
  steps: StepRecord[],
  opts: SynthesisOptions,
): Float32Array {
  const hop = m.hopLength;
  const q = m.codebooks;
  const audio = new Float32Array(frames * hop);
  const decode = (from: number, to: number, context: number, phase0: number): { audio: Float32Array; endPhase: number } => {
    const out = new Float32Array((to - from) * hop);
    const endPhase = session.vocode(codes.slice(from * q, to * q), to - from, context, phase0, from * hop, out);
    return { audio: out.subarray(context * hop), endPhase };
  };
  if (profile.vocoder === 'full') {
    opts.onProgress?.({ stage: 'vocoder', step: 0, totalSteps: 1 });
    audio.set(decode(0, frames, 0, 0).audio);
    opts.onAudioChunk?.(audio, 0);
    opts.onProgress?.({ stage: 'vocoder', step: 1, totalSteps: 1 });
  } else {
    const chunk = m.vocoder.chunkFrames;
    const noContext = dropsLeftContext(profile);
    const total = Math.ceil(frames / chunk);
    let phase = 0;
    for (let start = 0, i = 0; start < frames; start += chunk, i++) {
      const { from, end, context } = streamChunk(start, frames, m.vocoder, noContext);
      const out = decode(from, end, context, noContext ? 0 : phase);
      phase = out.endPhase;
      audio.set(out.audio, start * hop);
      opts.onAudioChunk?.(Float32Array.from(out.audio), start * hop);
      opts.onProgress?.({ stage: 'vocoder', step: i + 1, totalSteps: total });
    }
  }
  recordVocoderCounts(audio, hop, frames, steps);
  return audio;
}
