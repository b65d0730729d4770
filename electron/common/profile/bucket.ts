/**
 * bucket=K (docs/profiles-syntax.md): a captured vocoder graph exists for spans of K, 2K, 3K, … frames,
 * so each stream chunk's decoded span (left context + the chunk's frames) is padded at the end to the
 * next multiple of K and its audio trimmed back, as CUDA-graph runners do (vllm-omni 4466, sglang-omni 1209).
 * bucket=K1|K2|…: graphs were captured at those sizes only; a span is padded to the smallest one that
 * holds it, and a span larger than all of them is decoded at its own size, unpadded, as a runner runs
 * a size it did not capture without its graph.
 */

/** K (the multiples of K) or the ascending list of captured sizes. */
export type Bucket = number | readonly number[];

/** As the profile writes it: `13`, `8|16|32`. */
export const formatBucket = (bucket: Bucket): string => (typeof bucket === 'number' ? String(bucket) : bucket.join('|'));

/** Frames of padding a span of `span` frames gets under bucket=K. */
export function bucketPadding(span: number, bucket: Bucket): number {
  if (typeof bucket === 'number') return (bucket - (span % bucket)) % bucket;
  const size = bucket.find((b) => b >= span);
  return size === undefined ? 0 : size - span;
}

/** The stream vocoder's chunking (engine/run/stream-chunk.ts): chunkFrames per chunk, up to leftContextFrames re-decoded before it. */
export interface ChunkShape {
  chunkFrames: number;
  leftContextFrames: number;
}

/**
 * Fault stale-tail: the 1-based chunk boundaries it corrupts, i.e. those that follow a padded chunk
 * (the last chunk has no boundary after it). Boundary k is at frame k·chunkFrames + 1.
 */
export function staleTailBoundaries(frames: number, shape: ChunkShape, bucket: Bucket): number[] {
  const out: number[] = [];
  for (let start = 0, k = 1; start + shape.chunkFrames < frames; start += shape.chunkFrames, k++) {
    const span = shape.chunkFrames + Math.min(shape.leftContextFrames, start);
    if (bucketPadding(span, bucket) > 0) out.push(k);
  }
  return out;
}
