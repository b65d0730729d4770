import type { Viewport } from '../lib/viewport.js';

/** What stands at one time on every lane: playhead, hover cursor, loop region, first divergence. */
export interface OverlayMarks {
  position?: number;
  hover?: number;
  loop?: { start: number; end: number };
  loopOn?: boolean;
  divergence?: number;
}

export interface OverlayColors {
  cursor: string;
  marker: string;
  muted: string;
}

/** Draws the marks over the full height of the lanes, at the x every lane uses for that time. */
export function drawOverlay(ctx: CanvasRenderingContext2D, vp: Viewport, width: number, height: number, marks: OverlayMarks, c: OverlayColors): void {
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
  const line = (t: number | undefined, color: string, w: number, dash: number[] = []) => {
    if (t === undefined || t < vp.start || t > vp.end) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = w;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(Math.round(x(t)) + 0.5, 0);
    ctx.lineTo(Math.round(x(t)) + 0.5, height);
    ctx.stroke();
    ctx.setLineDash([]);
  };
  line(marks.divergence, c.marker, 2);
  line(marks.hover, c.muted, 1, [3, 3]);
  line(marks.position, c.cursor, 2);
}
