import { f64Tensor, f32Tensor, i64Tensor, run, type OrtSession } from '../ort-session.js';
import { noiseRange } from './noise.js';
import type { RunClock } from './run-clock.js';

export interface VocoderShape {
  codebooks: number;
  hop: number;
}

/** Frames [from, to) of codes [frames, q], then `pad` frames of code 0, as an int64 [1, to-from+pad, q] tensor. */
function codesTensor(codes: Int32Array, from: number, to: number, q: number, pad: number) {
  const data = new BigInt64Array((to - from + pad) * q);
  codes.subarray(from * q, to * q).forEach((c, i) => (data[i] = BigInt(c)));
  return i64Tensor(data, [1, to - from + pad, q]);
}

/**
 * Runs the vocoder over frames [from, to) with `context` leading frames of left context (their audio
 * is dropped) and the carried oscillator phase; `poison` puts NaN into the noise of one frame
 * (fault nan@vocoder). `pad` frames of code 0 follow frame to − 1 (bucket=K: the span a captured graph
 * was recorded for); the vocoder is causal, so they leave the real frames' audio alone. Returns the audio
 * of [from + context, to), the padding's audio (`padAudio`, what the output buffer holds past the real
 * frames) and the phase at the end of the decoded span (with padding: past the real frames).
 */
export async function decodeFrames(
  session: OrtSession,
  v: VocoderShape,
  clock: RunClock,
  codes: Int32Array,
  from: number,
  to: number,
  context: number,
  phase0: number,
  poisonFrame?: number,
  pad = 0,
): Promise<{ audio: Float32Array; padAudio: Float32Array; endPhase: number }> {
  const noise = noiseRange(from * v.hop, (to - from + pad) * v.hop);
  if (poisonFrame !== undefined && poisonFrame >= from && poisonFrame < to) {
    noise.fill(NaN, (poisonFrame - from) * v.hop, (poisonFrame - from + 1) * v.hop);
  }
  const out = await clock.time(() =>
    run(session, {
      audio_codes: codesTensor(codes, from, to, v.codebooks, pad),
      noise: f32Tensor(noise, [1, noise.length]),
      phase0: f64Tensor(Float64Array.of(phase0), [1]),
      context_frames: i64Tensor(BigInt64Array.of(BigInt(context)), [1]),
    }),
  );
  const all = out.audio.data as Float32Array;
  const real = (to - from) * v.hop;
  return { audio: all.slice(context * v.hop, real), padAudio: all.slice(real), endPhase: (out.end_phase.data as Float64Array)[0] };
}
