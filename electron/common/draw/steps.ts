import type { DrawContext } from './draw-context.js';
import { logFraction, type StepDelta } from './step-delta.js';
import type { Viewport } from './viewport.js';

export interface StepLaneColors {
  bar: string;
  marker: string;
  grid: string;
  muted: string;
}

/** x range of step N's frame on the timeline (frame N from step N, [(N − 1)/fps, N/fps) seconds). */
export function stepSpan(step: number, frameRate: number, vp: Viewport, width: number): [number, number] {
  const span = vp.end - vp.start;
  return [(((step - 1) / frameRate - vp.start) / span) * width, ((step / frameRate - vp.start) / span) * width];
}

/**
 * Per-step |Δ| of the talker logit statistics as bars on a log scale, each over its frame's time span;
 * decade grid lines; the tolerance dashed over the bars; a step whose statistics are not finite on a side is a full-height hatched bar
 * labelled "NaN"/"Inf"; a step one side never ran is labelled "A only"/"B only".
 */
export function drawStepDeltas(
  ctx: DrawContext,
  deltas: readonly StepDelta[],
  range: { min: number; max: number },
  tolerance: number | undefined,
  frameRate: number,
  vp: Viewport,
  width: number,
  height: number,
  c: StepLaneColors,
): void {
  if (!(frameRate > 0) || !(vp.end > vp.start)) return;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillStyle = c.grid;
  for (let e = Math.ceil(Math.log10(range.min)); e <= Math.floor(Math.log10(range.max)); e++) {
    const y = Math.round(height - logFraction(10 ** e, range) * height) + 0.5;
    ctx.fillRect(0, y, width, 1);
  }
  for (const d of deltas) {
    const [x0, x1] = stepSpan(d.step, frameRate, vp, width);
    if (x1 < 0 || x0 > width) continue;
    const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
    if (d.nonFinite || d.missing) {
      ctx.fillStyle = c.marker;
      ctx.globalAlpha = 0.35;
      ctx.fillRect(x0, 0, w, height);
      ctx.globalAlpha = 1;
      if (w >= 14) ctx.fillText(d.nonFinite ? (d.nonFinite.includes('NaN') ? 'NaN' : 'Inf') : `${d.missing === 'A' ? 'B' : 'A'} only`, x0 + 2, 2);
      continue;
    }
    if (d.delta === null || d.delta <= 0) continue;
    const h = logFraction(d.delta, range) * height;
    ctx.fillStyle = tolerance !== undefined && d.delta > tolerance ? c.marker : c.bar;
    ctx.fillRect(x0, height - h, w, Math.max(1, h));
  }
  // The tolerance above the bars: a dashed line over a light halo, so it reads across red and blue bars.
  if (tolerance !== undefined && tolerance > 0) {
    const y = Math.round(height - logFraction(tolerance, range) * height) + 0.5;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(width, y);
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.lineWidth = 3;
    ctx.stroke();
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = '#1d232a';
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
