/**
 * Min/max peaks for drawing: the signal in `buckets` equal slices, each slice as its maximum then its
 * minimum (2 values per bucket, clamped to [-1, 1]), so a waveform drawer that takes the extremes per
 * pixel shows the true envelope. A 10-minute 24 kHz track (14.4 M samples) becomes at most
 * 2 × maxBuckets values, which keeps zoom and scroll cheap. `totalLength` (≥ samples.length) pads
 * with silence so tracks of different lengths share one timeline.
 */
export function computePeaks(samples: Float32Array, maxBuckets: number, totalLength = samples.length): Float32Array {
  const n = Math.max(totalLength, samples.length);
  if (n === 0) return new Float32Array([0, 0]);
  if (n <= maxBuckets) {
    const out = new Float32Array(n);
    for (let i = 0; i < samples.length; i++) out[i] = clamp(samples[i]);
    return out;
  }
  const buckets = maxBuckets;
  const out = new Float32Array(buckets * 2);
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * n) / buckets);
    const end = Math.floor(((b + 1) * n) / buckets);
    let max = end > samples.length ? 0 : -Infinity;
    let min = end > samples.length ? 0 : Infinity;
    const stop = Math.min(end, samples.length);
    for (let i = start; i < stop; i++) {
      const v = samples[i];
      if (v > max) max = v;
      if (v < min) min = v;
    }
    out[2 * b] = max === -Infinity ? 1 : clamp(max);
    out[2 * b + 1] = min === Infinity ? -1 : clamp(min);
  }
  return out;
}

/** Non-finite samples (a NaN from a broken stage) draw as full scale so they are seen, not hidden. */
function clamp(v: number): number {
  if (Number.isNaN(v)) return 1;
  return v > 1 ? 1 : v < -1 ? -1 : v;
}

/** A − B over the common length (what the difference track shows and the D key plays). */
export function difference(a: Float32Array, b: Float32Array): Float32Array {
  const n = Math.min(a.length, b.length);
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = a[i] - b[i];
  return d;
}

/**
 * Peaks at several resolutions (level of detail): tier 0 is the finest (the samples themselves when
 * there are at most 2 × maxBuckets, else maxBuckets max/min pairs); each next tier halves the
 * bucket count by merging neighbours (max of maxima, min of minima), down to about minBuckets. A
 * drawer picks the coarsest tier that still has a bucket per pixel, so redraw cost follows the
 * screen width, not the length of the audio.
 */
export interface PeakTier {
  /** Values as the drawer takes them (max/min pairs, or raw samples for tier 0 of short audio). */
  peaks: Float32Array;
  /** Buckets (pixels' worth of detail) across the whole timeline. */
  buckets: number;
}

export function buildPeakPyramid(samples: Float32Array, totalLength: number, minBuckets = 4096, maxBuckets = 1 << 20): PeakTier[] {
  const n = Math.max(totalLength, samples.length);
  const tiers: PeakTier[] = [];
  let pairs: Float32Array;
  if (n <= 2 * maxBuckets) {
    const raw = computePeaks(samples, n, n);
    tiers.push({ peaks: raw, buckets: n });
    if (n <= 2 * minBuckets) return tiers;
    pairs = computePeaks(samples, Math.ceil(n / 2), n);
  } else {
    pairs = computePeaks(samples, maxBuckets, n);
  }
  tiers.push({ peaks: pairs, buckets: pairs.length / 2 });
  while (pairs.length / 2 >= 2 * minBuckets) {
    const buckets = Math.floor(pairs.length / 4);
    const next = new Float32Array(buckets * 2);
    for (let b = 0; b < buckets; b++) {
      next[2 * b] = Math.max(pairs[4 * b], pairs[4 * b + 2]);
      next[2 * b + 1] = Math.min(pairs[4 * b + 1], pairs[4 * b + 3]);
    }
    tiers.push({ peaks: next, buckets });
    pairs = next;
  }
  return tiers;
}
