import type { DrawContext } from './draw-context.js';
import type { SeamMark } from './seam-marks.js';
import type { Viewport } from './viewport.js';

/** What stands at one time across the lanes: playhead, hover cursor, loop region, first divergence, seams. */
export interface OverlayMarks {
  position?: number;
  hover?: number;
  loop?: { start: number; end: number };
  loopOn?: boolean;
  divergence?: number;
  /** Seams at streaming-vocoder chunk boundaries, marked over the waveform lanes only (y from `top` to `bottom`). */
  seams?: { marks: readonly SeamMark[]; top: number; bottom: number };
}

export interface OverlayColors {
  cursor: string;
  marker: string;
  muted: string;
  seam: string;
}

/** Half the width of a seam's triangle at the top of the waveform lanes (px). */
export const SEAM_HALF_WIDTH = 4;

/** Draws the marks over the full height of the lanes, at the x every lane uses for that time. */
export function drawMarks(ctx: DrawContext, vp: Viewport, width: number, height: number, marks: OverlayMarks, c: OverlayColors): void {
  const span = vp.end - vp.start;
  if (!(span > 0)) return;
  const x = (t: number) => ((t - vp.start) / span) * width;
  if (marks.loop) {
    const x0 = Math.max(0, x(marks.loop.start));
    const x1 = Math.min(width, x(marks.loop.end));
    if (x1 > x0) {
      ctx.fillStyle = c.marker;
      ctx.globalAlpha = marks.loopOn ? 0.14 : 0.06;
      ctx.fillRect(x0, 0, x1 - x0, height);
      ctx.globalAlpha = 1;
      ctx.fillRect(x0, 0, 1, height);
      ctx.fillRect(x1 - 1, 0, 1, height);
    }
  }
  const line = (t: number | undefined, color: string, w: number, dash: number[] = [], y0 = 0, y1 = height) => {
    if (t === undefined || t < vp.start || t > vp.end) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = w;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(Math.round(x(t)) + 0.5, y0);
    ctx.lineTo(Math.round(x(t)) + 0.5, y1);
    ctx.stroke();
    ctx.setLineDash([]);
  };
  line(marks.divergence, c.marker, 2);
  // After the divergence line: a stream's first seam is often where it diverges, and stays visible on top.
  if (marks.seams) {
    const { top, bottom } = marks.seams;
    for (const seam of marks.seams.marks) {
      if (seam.timeSec < vp.start || seam.timeSec > vp.end) continue;
      // A dotted line through the waveforms and a solid triangle at their top, pointing down at the boundary.
      line(seam.timeSec, c.seam, 1, [2, 3], top, bottom);
      const px = Math.round(x(seam.timeSec)) + 0.5;
      ctx.fillStyle = c.seam;
      ctx.beginPath();
      ctx.moveTo(px - SEAM_HALF_WIDTH, top);
      ctx.lineTo(px + SEAM_HALF_WIDTH, top);
      ctx.lineTo(px, top + 2 * SEAM_HALF_WIDTH);
      ctx.closePath();
      ctx.fill();
    }
  }
  line(marks.hover, c.muted, 1, [3, 3]);
  line(marks.position, c.cursor, 2);
}
