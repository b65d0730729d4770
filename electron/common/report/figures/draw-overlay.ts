import { divergenceMarker, FIGURE_COLORS as C, FIGURE_FONT, verticalLine, type FigureBox, type FigureContext } from './figure-context.js';
import { niceStep, ticksIn } from './nice-ticks.js';
import type { TrackEnvelope } from './track-envelope.js';

/** What the waveform figure shows: A and B overlaid, A − B below it, the first divergence marked. */
export interface OverlayFigure {
  a: TrackEnvelope;
  b: TrackEnvelope;
  /** A − B already scaled by `diffGain`, so a tiny difference still fills its track. */
  diff: TrackEnvelope;
  diffGain: number;
  sampleRate: number;
  /** Time of the first divergence (s), and its label, e.g. "first divergence: step 2". */
  marker?: { sec: number; label: string };
}

/** The seconds shown across the figure (zoom and scroll set it). */
export interface TimeView {
  fromSec: number;
  toSec: number;
}

export const OVERLAY_MARGIN = { left: 46, right: 8, top: 18, bottom: 22 } as const;

/** The x (CSS px) of time `sec` in a figure of `width` showing `view`. */
export function overlayX(sec: number, view: TimeView, width: number): number {
  const plot = width - OVERLAY_MARGIN.left - OVERLAY_MARGIN.right;
  return OVERLAY_MARGIN.left + ((sec - view.fromSec) / (view.toSec - view.fromSec)) * plot;
}

/** The time under x, the inverse of `overlayX`. */
export function overlaySec(x: number, view: TimeView, width: number): number {
  const plot = width - OVERLAY_MARGIN.left - OVERLAY_MARGIN.right;
  return view.fromSec + ((x - OVERLAY_MARGIN.left) / plot) * (view.toSec - view.fromSec);
}

/** Min/max per pixel column of one track between y0 and y1 (full scale = the half height). */
function drawTrack(ctx: FigureContext, env: TrackEnvelope, view: TimeView, rate: number, box: FigureBox, y0: number, y1: number, color: string): void {
  const mid = (y0 + y1) / 2;
  const half = (y1 - y0) / 2;
  const left = OVERLAY_MARGIN.left;
  const cols = Math.max(1, Math.round(box.width - left - OVERLAY_MARGIN.right));
  const perCol = ((view.toSec - view.fromSec) * rate) / cols;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let c = 0; c < cols; c++) {
    const from = Math.floor(view.fromSec * rate + c * perCol);
    const to = Math.max(from + 1, Math.floor(view.fromSec * rate + (c + 1) * perCol));
    if (from >= env.length || to <= 0) continue;
    const [min, max] = env.extent(from, to);
    const x = left + c + 0.5;
    ctx.moveTo(x, mid - max * half - 0.5);
    ctx.lineTo(x, mid - min * half + 0.5);
  }
  ctx.stroke();
}

/** Draws the whole figure over a cleared background. */
export function drawOverlay(ctx: FigureContext, fig: OverlayFigure, box: FigureBox, view: TimeView): void {
  const { left, right, top, bottom } = OVERLAY_MARGIN;
  const plotBottom = box.height - bottom;
  const gap = 10;
  const waveBottom = top + Math.round((plotBottom - top - gap) * 0.62);
  const diffTop = waveBottom + gap;
  ctx.save();
  ctx.fillStyle = C.background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.font = FIGURE_FONT;
  // Time grid and labels.
  const { step, digits } = niceStep(view.toSec - view.fromSec, Math.max(2, Math.floor((box.width - left - right) / 90)));
  ctx.strokeStyle = C.grid;
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of ticksIn(view.fromSec, view.toSec, step)) {
    const x = overlayX(t, view, box.width);
    verticalLine(ctx, x, top, plotBottom);
    ctx.fillText(`${t.toFixed(digits)} s`, x, plotBottom + 4);
  }
  for (const [y0, y1] of [[top, waveBottom], [diffTop, plotBottom]]) {
    ctx.fillStyle = C.grid;
    ctx.fillRect(left, Math.round((y0 + y1) / 2), box.width - left - right, 1);
  }
  drawTrack(ctx, fig.a, view, fig.sampleRate, box, top, waveBottom, C.a);
  drawTrack(ctx, fig.b, view, fig.sampleRate, box, top, waveBottom, C.b);
  drawTrack(ctx, fig.diff, view, fig.sampleRate, box, diffTop, plotBottom, C.diff);
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = C.a;
  ctx.fillText('A', 6, (top + waveBottom) / 2 - 8);
  ctx.fillStyle = C.b;
  ctx.fillText('B', 6, (top + waveBottom) / 2 + 8);
  ctx.fillStyle = C.diff;
  ctx.fillText('A−B', 6, (diffTop + plotBottom) / 2 - 8);
  ctx.fillText(`×${gainText(fig.diffGain)}`, 6, (diffTop + plotBottom) / 2 + 8);
  if (fig.marker && fig.marker.sec >= view.fromSec && fig.marker.sec <= view.toSec) {
    const x = overlayX(fig.marker.sec, view, box.width);
    divergenceMarker(ctx, x, { left, right, top, bottom: plotBottom }, box.width, `${fig.marker.label} (${fig.marker.sec.toFixed(3)} s)`);
  }
  ctx.restore();
}

/** 1, 12.5, 3.2e+4: the gain the difference track was drawn with. */
function gainText(g: number): string {
  return g >= 1000 ? g.toExponential(1) : g >= 10 ? g.toFixed(0) : g.toFixed(1);
}

/** The gain that makes a difference of peak `maxAbs` fill its track (1 when there is none), capped at 10⁶. */
export function diffGainFor(maxAbs: number): number {
  return maxAbs > 0 && Number.isFinite(maxAbs) ? Math.min(1e6, 1 / maxAbs) : 1;
}
