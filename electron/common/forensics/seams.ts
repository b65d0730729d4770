import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';

/**
 * Seams at streaming-vocoder chunk boundaries (docs/forensics.md "Seams"). A seam is a discontinuity
 * that one rendering has at a chunk boundary and the other does not, so it is measured on the
 * difference e = B − A, where whatever both renderings share (their own sound, the demo's seeded noise)
 * cancels. Curvature |e[n+1] − 2e[n] + e[n−1]| spikes at a step or a kink; at boundary sample s (the
 * first sample of the new chunk) it is taken at n = s−1 and n = s (the two that straddle it) and
 * compared with the largest curvature in the windowMs before it (n = s−w … s−3): a seam is sharper
 * than anything the difference did just before. Only the window before counts, because a leaked tail
 * (vllm-omni 4466) ends in a second discontinuity just after the boundary. The boundary is a seam when
 * that ratio exceeds `ratio` and the curvature exceeds `audioAbs` (so two renderings that agree to the
 * audio tolerance have no seam).
 */

/**
 * Seam ratio threshold. Measured with this function on the demo (eager vs the no-left-context stream
 * and vs fp16; three texts) at 4,108 positions off the chunk boundaries, half-chunk shifts included:
 * the ratio never exceeded 1.36; 1.5 sits above that. At the no-left-context boundaries it was 1.24 to ∞ (21 of 23
 * above 1.5).
 */
export const DEFAULT_SEAM_RATIO = 1.5;
export const SEAM_WINDOW_MS = 20;

export const Seam = z.object({
  /** 1-based: the boundary between chunk k and chunk k+1 is boundary k. */
  boundary: z.number().int().positive(),
  /** 1-based frame that starts the new chunk. */
  frame: z.number().int().positive(),
  sample: z.number().int().nonnegative(),
  timeSec: JsonNumber,
  curvature: JsonNumber,
  windowMax: JsonNumber,
  ratio: JsonNumber,
});
export type Seam = z.infer<typeof Seam>;

export const SeamReport = z.object({
  chunkFrames: z.number().int().positive(),
  /** Boundaries inside both renderings that were checked. */
  checked: z.number().int().nonnegative(),
  ratio: z.number().positive(),
  windowMs: z.number().positive(),
  audioAbs: z.number().nonnegative(),
  seams: z.array(Seam),
});
export type SeamReport = z.infer<typeof SeamReport>;

export interface SeamOptions {
  sampleRate: number;
  frameRate: number;
  chunkFrames: number;
  audioAbs: number;
  ratio?: number;
  windowMs?: number;
}

const curvatureAt = (e: Float32Array, n: number): number => Math.abs(e[n + 1] - 2 * e[n] + e[n - 1]);

/** Checks every chunk boundary inside both renderings (with a full window before it) for a seam. */
export function findSeams(a: Float32Array, b: Float32Array, o: SeamOptions): SeamReport {
  const ratio = o.ratio ?? DEFAULT_SEAM_RATIO;
  const windowMs = o.windowMs ?? SEAM_WINDOW_MS;
  const n = Math.min(a.length, b.length);
  const e = new Float32Array(n);
  for (let i = 0; i < n; i++) e[i] = b[i] - a[i];
  const w = Math.round((windowMs / 1000) * o.sampleRate);
  const perChunk = (o.chunkFrames * o.sampleRate) / o.frameRate;
  const seams: Seam[] = [];
  let checked = 0;
  for (let k = 1; ; k++) {
    const s = Math.round(k * perChunk);
    if (s + 1 >= n) break;
    if (s - w - 1 < 1) continue;
    checked++;
    const curvature = Math.max(curvatureAt(e, s - 1), curvatureAt(e, s));
    let windowMax = 0;
    for (let i = s - w; i < s - 2; i++) windowMax = Math.max(windowMax, curvatureAt(e, i));
    const r = windowMax === 0 ? (curvature > 0 ? Infinity : 0) : curvature / windowMax;
    if (curvature > o.audioAbs && r > ratio) {
      seams.push({ boundary: k, frame: k * o.chunkFrames + 1, sample: s, timeSec: s / o.sampleRate, curvature, windowMax, ratio: r });
    }
  }
  return { chunkFrames: o.chunkFrames, checked, ratio, windowMs, audioAbs: o.audioAbs, seams };
}

const f = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(3))) : String(x));

/** The seams in words, for the CLI summary and report.md. */
export function seamLines(r: SeamReport): string[] {
  const head = `Seams at vocoder chunk boundaries (every ${r.chunkFrames} frames; curvature of B − A over the largest in the ${r.windowMs} ms before > ${r.ratio}): ${r.seams.length} of ${r.checked} boundaries`;
  // windowMax 0: B − A had no curvature at all in the window, so the ratio is infinite; say that in words.
  const sharpness = (s: Seam): string => (s.windowMax === 0 ? `B − A flat in the ${r.windowMs} ms before` : `ratio ${f(s.ratio)}`);
  return [head, ...r.seams.map((s) => `  t = ${s.timeSec.toFixed(3)} s (sample ${s.sample}, frame ${s.frame}): ${sharpness(s)}, curvature ${f(s.curvature)}`)];
}
