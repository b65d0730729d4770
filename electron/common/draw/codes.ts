import type { DrawContext } from './draw-context.js';
import type { Viewport } from './viewport.js';

/** Codes of both sides: frames × q row-major, -1 where a side has no frame. */
export interface CodesData {
  frames: number;
  q: number;
  a: Int32Array;
  b: Int32Array;
}

/** Codes per frame as a report holds them (null where that side has no frame), as CodesData. */
export function codesData(a: readonly (readonly number[] | null)[], b: readonly (readonly number[] | null)[]): CodesData {
  const frames = Math.max(a.length, b.length);
  const q = Math.max(0, ...[...a, ...b].map((c) => c?.length ?? 0));
  const out = { frames, q, a: new Int32Array(frames * q).fill(-1), b: new Int32Array(frames * q).fill(-1) };
  for (let f = 0; f < frames; f++) {
    for (let k = 0; k < q; k++) {
      out.a[f * q + k] = a[f]?.[k] ?? -1;
      out.b[f * q + k] = b[f]?.[k] ?? -1;
    }
  }
  return out;
}

/**
 * The codes grid on the shared timeline: frame N's column spans its frame's time, codebook 0 at the
 * top; equal codes in a grey that follows the code value, differing ones in the marker colour.
 */
export function drawCodesLane(ctx: DrawContext, codes: CodesData, frameRate: number, vp: Viewport, width: number, height: number, marker: string): void {
  const span = vp.end - vp.start;
  if (!(frameRate > 0) || !(span > 0)) return;
  const rowH = height / codes.q;
  const firstFrame = Math.max(0, Math.floor(vp.start * frameRate));
  const lastFrame = Math.min(codes.frames - 1, Math.ceil(vp.end * frameRate));
  for (let f = firstFrame; f <= lastFrame; f++) {
    const x0 = ((f / frameRate - vp.start) / span) * width;
    const x1 = (((f + 1) / frameRate - vp.start) / span) * width;
    const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
    for (let k = 0; k < codes.q; k++) {
      const i = f * codes.q + k;
      if (codes.a[i] < 0 && codes.b[i] < 0) continue;
      const same = codes.a[i] === codes.b[i];
      ctx.fillStyle = same ? `hsl(210, 12%, ${35 + ((Math.max(0, codes.a[i]) * 37) % 40)}%)` : marker;
      ctx.fillRect(x0, k * rowH, w, Math.max(1, rowH - (rowH > 3 ? 1 : 0)));
    }
  }
}
