import type { ExecutionProfile } from '../../common/profile/types.js';

/** Fault no-left-context: stream chunks get neither left context nor the previous chunk's end phase. */
export const dropsLeftContext = (profile: ExecutionProfile): boolean => profile.faults.some((f) => f.kind === 'no-left-context');

/**
 * vocoder=stream, the chunk that starts at frame `start` of `frames`: frames [from, end) are decoded,
 * the first `context` of them (up to leftContextFrames earlier frames; none under no-left-context) as
 * left context whose audio is dropped. The ORT and native vocoders both chunk by this.
 */
export function streamChunk(
  start: number,
  frames: number,
  vocoder: { chunkFrames: number; leftContextFrames: number },
  noContext: boolean,
): { from: number; end: number; context: number } {
  const end = Math.min(frames, start + vocoder.chunkFrames);
  const context = noContext ? 0 : Math.min(vocoder.leftContextFrames, start);
  return { from: start - context, end, context };
}
