import { inPlot, markerLabel, type DrawBox, type DrawContext, type Margins, type Palette } from './draw-context.js';
import { drawMarks } from './marks.js';
import { drawRuler } from './ruler.js';
import type { SeamMark } from './seam-marks.js';
import { timeTicks } from './time-ticks.js';
import { timeToX, xToTime, type Viewport } from './viewport.js';
import { drawWave, type WaveSource } from './wave.js';

/**
 * report.html's waveform figure and overlay.png: the studio's time ruler, A + B lane and difference lane
 * (the same drawing functions), stacked, with the lanes' labels on the left and the first divergence
 * labelled in the top margin.
 */
export interface WaveFigure {
  a?: WaveSource;
  b?: WaveSource;
  diff?: WaveSource;
  /** The gain the difference lane is drawn with (1 when its samples come already scaled). */
  diffDrawGain: number;
  /** The gain shown beside it: how much the difference is magnified against A and B. */
  diffShownGain: number;
  sampleRate: number;
  /** Time of the first divergence (s) and its label, e.g. "first divergence: step 2". */
  marker?: { sec: number; label: string };
  seams: readonly SeamMark[];
}

export const WAVE_MARGIN: Margins = { left: 56, right: 8, top: 18, bottom: 4 };
const RULER_HEIGHT = 22;
const LANE_GAP = 6;

/** The y ranges of the figure's lanes for a figure `height` px high. */
export function waveFigureLanes(height: number): { ruler: [number, number]; ab: [number, number]; diff: [number, number] } {
  const top = WAVE_MARGIN.top;
  const lanesTop = top + RULER_HEIGHT;
  const bottom = height - WAVE_MARGIN.bottom;
  const abBottom = lanesTop + Math.round((bottom - lanesTop - LANE_GAP) * 0.62);
  return { ruler: [top, lanesTop], ab: [lanesTop, abBottom], diff: [abBottom + LANE_GAP, bottom] };
}

const plotWidth = (width: number) => width - WAVE_MARGIN.left - WAVE_MARGIN.right;

/** The x (CSS px) of time `sec` in a figure of `width` showing `vp`. */
export function waveFigureX(sec: number, vp: Viewport, width: number): number {
  return WAVE_MARGIN.left + timeToX(vp, plotWidth(width), sec);
}

/** The time under x, the inverse of `waveFigureX`. */
export function waveFigureSec(x: number, vp: Viewport, width: number): number {
  return xToTime(vp, plotWidth(width), x - WAVE_MARGIN.left);
}

/** 1, 12.5, 3.2e+4: the gain the difference lane is shown with. */
function gainText(g: number): string {
  return g >= 1000 ? g.toExponential(1) : g >= 10 ? g.toFixed(0) : g.toFixed(1);
}

/** Draws the whole figure over a cleared background. */
export function drawWaveFigure(ctx: DrawContext, fig: WaveFigure, box: DrawBox, vp: Viewport, c: Palette): void {
  const lanes = waveFigureLanes(box.height);
  const left = WAVE_MARGIN.left;
  const w = plotWidth(box.width);
  ctx.save();
  ctx.fillStyle = c.background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.font = c.font;
  inPlot(ctx, left, lanes.ruler[0], w, lanes.ruler[1] - lanes.ruler[0], () => {
    const { unit, ticks } = timeTicks(vp, w, fig.sampleRate);
    drawRuler(ctx, ticks, unit, w, lanes.ruler[1] - lanes.ruler[0], c.fg, c.muted, c.font);
  });
  for (const [y0, y1] of [lanes.ab, lanes.diff]) {
    ctx.fillStyle = c.grid;
    ctx.fillRect(left, Math.round((y0 + y1) / 2), w, 1);
  }
  inPlot(ctx, left, lanes.ab[0], w, lanes.ab[1] - lanes.ab[0], () => {
    ctx.globalAlpha = 0.75;
    if (fig.a) drawWave(ctx, fig.a, vp, w, 0, lanes.ab[1] - lanes.ab[0], c.a);
    if (fig.b) drawWave(ctx, fig.b, vp, w, 0, lanes.ab[1] - lanes.ab[0], c.b);
    ctx.globalAlpha = 1;
  });
  inPlot(ctx, left, lanes.diff[0], w, lanes.diff[1] - lanes.diff[0], () => {
    if (fig.diff) drawWave(ctx, fig.diff, vp, w, 0, lanes.diff[1] - lanes.diff[0], c.diff, { gain: fig.diffDrawGain, db: false });
  });
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const abMid = (lanes.ab[0] + lanes.ab[1]) / 2;
  const diffMid = (lanes.diff[0] + lanes.diff[1]) / 2;
  ctx.fillStyle = c.a;
  ctx.fillText('A', 6, abMid - 8);
  ctx.fillStyle = c.b;
  ctx.fillText('B', 6, abMid + 8);
  ctx.fillStyle = c.diff;
  ctx.fillText('A−B', 6, diffMid - 8);
  ctx.fillText(`×${gainText(fig.diffShownGain)}`, 6, diffMid + 8);
  const marksTop = lanes.ruler[0] - 4;
  inPlot(ctx, left, marksTop, w, lanes.diff[1] - marksTop, () => {
    drawMarks(ctx, vp, w, lanes.diff[1] - marksTop, {
      divergence: fig.marker?.sec,
      seams: fig.seams.length > 0 ? { marks: fig.seams, top: lanes.ab[0] - marksTop, bottom: lanes.diff[1] - marksTop } : undefined,
    }, c);
  });
  if (fig.marker && fig.marker.sec >= vp.start && fig.marker.sec <= vp.end) {
    markerLabel(ctx, waveFigureX(fig.marker.sec, vp, box.width), left, w, `${fig.marker.label} (${fig.marker.sec.toFixed(3)} s)`, c.marker);
  }
  ctx.restore();
}
