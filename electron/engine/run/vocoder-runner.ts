import { f64Tensor, f32Tensor, i64Tensor, run, type OrtSession } from '../ort-session.js';
import { noiseRange } from './noise.js';
import type { RunClock } from './run-clock.js';

export interface VocoderShape {
  codebooks: number;
  hop: number;
}

/** Frames [from, to) of codes [frames, q] as an int64 [1, to-from, q] tensor. */
function codesTensor(codes: Int32Array, from: number, to: number, q: number) {
  const data = BigInt64Array.from(codes.subarray(from * q, to * q), (c) => BigInt(c));
  return i64Tensor(data, [1, to - from, q]);
}

/**
 * Runs the vocoder over frames [from, to) with `context` leading frames of left context (their audio
 * is dropped) and the carried oscillator phase; `poison` puts NaN into the noise of one frame
 * (fault nan@vocoder). Returns the audio of [from + context, to) and the phase at its end.
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
): Promise<{ audio: Float32Array; endPhase: number }> {
  const noise = noiseRange(from * v.hop, (to - from) * v.hop);
  if (poisonFrame !== undefined && poisonFrame >= from && poisonFrame < to) {
    noise.fill(NaN, (poisonFrame - from) * v.hop, (poisonFrame - from + 1) * v.hop);
  }
  const out = await clock.time(() =>
    run(session, {
      audio_codes: codesTensor(codes, from, to, v.codebooks),
      noise: f32Tensor(noise, [1, noise.length]),
      phase0: f64Tensor(Float64Array.of(phase0), [1]),
      context_frames: i64Tensor(BigInt64Array.of(BigInt(context)), [1]),
    }),
  );
  const audio = (out.audio.data as Float32Array).subarray(context * v.hop);
  return { audio: Float32Array.from(audio), endPhase: (out.end_phase.data as Float64Array)[0] };
}
