/**
 * bucket=K (docs/profiles-syntax.md): a captured vocoder graph exists for spans of K, 2K, 3K, … frames,
 * so each stream chunk's decoded span (left context + the chunk's frames) is padded at the end to the
 * next multiple of K and its audio trimmed back, as CUDA-graph runners do (vllm-omni 4466, sglang-omni 1209).
 */

/** Frames of padding a span of `span` frames gets under bucket=K. */
export const bucketPadding = (span: number, bucket: number): number => (bucket - (span % bucket)) % bucket;

/** The stream vocoder's chunking (engine/run/stream-chunk.ts): chunkFrames per chunk, up to leftContextFrames re-decoded before it. */
export interface ChunkShape {
  chunkFrames: number;
  leftContextFrames: number;
}

/**
 * Fault stale-tail: the 1-based chunk boundaries it corrupts, i.e. those that follow a padded chunk
 * (the last chunk has no boundary after it). Boundary k is at frame k·chunkFrames + 1.
 */
export function staleTailBoundaries(frames: number, shape: ChunkShape, bucket: number): number[] {
  const out: number[] = [];
  for (let start = 0, k = 1; start + shape.chunkFrames < frames; start += shape.chunkFrames, k++) {
    const span = shape.chunkFrames + Math.min(shape.leftContextFrames, start);
    if (bucketPadding(span, bucket) > 0) out.push(k);
  }
  return out;
}
