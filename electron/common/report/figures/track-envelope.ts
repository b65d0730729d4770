/**
 * A track as a waveform drawer reads it: its length in samples and the extremes over any sample range.
 * From the samples themselves (report.html with its audio embedded, the PNGs) or from precomputed
 * max/min pairs (report.html past its audio size limit, where only the envelope is embedded).
 */
export interface TrackEnvelope {
  length: number;
  /** [min, max] over samples [from, to), clamped to [-1, 1]; a NaN counts as full scale so it is seen. */
  extent(from: number, to: number): [number, number];
}

function clamp(v: number): number {
  if (Number.isNaN(v)) return 1;
  return v > 1 ? 1 : v < -1 ? -1 : v;
}

export function samplesEnvelope(samples: Float32Array, scale = 1): TrackEnvelope {
  return {
    length: samples.length,
    extent(from, to) {
      let min = Infinity;
      let max = -Infinity;
      const stop = Math.min(to, samples.length);
      for (let i = Math.max(0, from); i < stop; i++) {
        const v = samples[i];
        if (Number.isNaN(v)) return [-1, 1];
        if (v < min) min = v;
        if (v > max) max = v;
      }
      return min === Infinity ? [0, 0] : [clamp(min * scale), clamp(max * scale)];
    },
  };
}

/**
 * `buckets` max/min pairs over `length` samples (bucket b covers samples [b·length/buckets, (b+1)·length/buckets)),
 * as `envelopePeaks` writes them.
 */
export function peaksEnvelope(peaks: ArrayLike<number>, length: number): TrackEnvelope {
  const buckets = peaks.length / 2;
  return {
    length,
    extent(from, to) {
      if (length === 0 || buckets === 0) return [0, 0];
      const b0 = Math.max(0, Math.floor((from * buckets) / length));
      const b1 = Math.min(buckets, Math.max(b0 + 1, Math.ceil((to * buckets) / length)));
      let min = Infinity;
      let max = -Infinity;
      for (let b = b0; b < b1; b++) {
        if (peaks[2 * b] > max) max = peaks[2 * b];
        if (peaks[2 * b + 1] < min) min = peaks[2 * b + 1];
      }
      return min === Infinity ? [0, 0] : [min, max];
    },
  };
}

/** `buckets` max/min pairs of `samples` times `scale` (for embedding an envelope instead of the audio). */
export function envelopePeaks(samples: Float32Array, buckets: number, scale = 1): number[] {
  const env = samplesEnvelope(samples, scale);
  const out: number[] = [];
  const n = samples.length;
  for (let b = 0; b < buckets; b++) {
    const [min, max] = env.extent(Math.floor((b * n) / buckets), Math.floor(((b + 1) * n) / buckets));
    out.push(round4(max), round4(min));
  }
  return out;
}

/** Four decimals: a 1 px waveform on a 200 px track needs no more, and the page stays small. */
function round4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
