import type { StageDelta } from './step-delta.js';

/**
 * Per frame (frame N from step N, samples [(N − 1)·rate/fps, N·rate/fps)), the largest |A − B| of the two
 * takes at lag 0, for `frames` frames: the vocoder row of the per-step views. A frame past one take's end
 * is that side missing; a NaN or an infinity in the frame on a side is said, not measured.
 */
export function frameDeltas(a: Float32Array, b: Float32Array, sampleRate: number, frameRate: number, frames: number): StageDelta[] {
  const out: StageDelta[] = [];
  if (!(sampleRate > 0) || !(frameRate > 0)) return out;
  const perFrame = sampleRate / frameRate;
  for (let f = 0; f < frames; f++) {
    const from = Math.round(f * perFrame);
    const to = Math.round((f + 1) * perFrame);
    if (from >= a.length || from >= b.length) {
      out.push({ delta: null, missing: from >= a.length && from >= b.length ? undefined : from >= a.length ? 'A' : 'B' });
      continue;
    }
    let max = 0;
    let bad: string | undefined;
    for (let i = from; i < Math.min(to, a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        bad = Number.isFinite(x) ? 'B not finite' : Number.isFinite(y) ? 'A not finite' : 'A and B not finite';
        break;
      }
      const d = Math.abs(x - y);
      if (d > max) max = d;
    }
    out.push(bad ? { delta: null, nonFinite: bad } : { delta: max });
  }
  return out;
}
