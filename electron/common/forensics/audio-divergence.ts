/** Two samples match when both are NaN or |a − b| ≤ tol. */
function sampleDiffers(a: number, b: number, tol: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return !(Number.isNaN(a) && Number.isNaN(b));
  return a !== b && !(Math.abs(a - b) <= tol);
}

/** Index of the first sample that differs beyond `tol`; the shorter length if one is a prefix of the other; null if none. */
export function firstDifferingSample(a: Float32Array, b: Float32Array, tol: number): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (sampleDiffers(a[i], b[i], tol)) return i;
  return a.length === b.length ? null : n;
}

/**
 * 1-based frames whose audio differs beyond `tol` (frame f covers samples
 * [round((f−1)·sr/fr), round(f·sr/fr))); a frame past the end of only one side differs.
 */
export function differingFrames(a: Float32Array, b: Float32Array, tol: number, sampleRate: number, frameRate: number): number[] {
  const total = Math.max(a.length, b.length);
  const perFrame = sampleRate / frameRate;
  const frames = Math.ceil(total / perFrame);
  const out: number[] = [];
  for (let f = 1; f <= frames; f++) {
    const start = Math.round((f - 1) * perFrame);
    const end = Math.min(Math.round(f * perFrame), total);
    for (let i = start; i < end; i++) {
      if (i >= a.length || i >= b.length || sampleDiffers(a[i], b[i], tol)) {
        out.push(f);
        break;
      }
    }
  }
  return out;
}

/** The 1-based frame that holds sample `index`. */
export function frameOfSample(index: number, sampleRate: number, frameRate: number): number {
  return Math.floor((index * frameRate) / sampleRate + 1e-9) + 1;
}
