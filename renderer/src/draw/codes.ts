import type { CodesData } from '../lib/hover-readout.js';
import type { Viewport } from '../lib/viewport.js';


/**
 * The codes grid on the shared timeline: frame N's column spans its frame's time, codebook 0 at the
 * top; equal codes in a grey that follows the code value, differing ones in the marker colour.
 */
export function drawCodesLane(ctx: CanvasRenderingContext2D, codes: CodesData, frameRate: number, vp: Viewport, width: number, height: number, marker: string): void {
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
      const same = codes.a[i] === codes.b[i];
      ctx.fillStyle = same ? `hsl(210, 12%, ${35 + ((Math.max(0, codes.a[i]) * 37) % 40)}%)` : marker;
      ctx.fillRect(x0, k * rowH, w, Math.max(1, rowH - (rowH > 3 ? 1 : 0)));
    }
  }
}
