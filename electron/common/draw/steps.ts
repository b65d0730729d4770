import type { DrawContext } from './draw-context.js';
import { logFraction, stageDelta, type Stage, type StageRow, type StepDelta } from './step-delta.js';
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

/** Height of a zero (equal) step's tick on the floor of its row: drawn, so an equal step is never a gap. */
const ZERO_TICK = 2;

/**
 * Per-step |Δ| as bars on a log scale, one row per stage (`rows`, top to bottom: talker, code predictor,
 * vocoder), each over its frame's time span; decade grid lines; the row's tolerance dashed over its bars; a
 * bar above its tolerance in the marker colour. An equal step (|Δ| 0) is a short muted tick on the row's floor;
 * a step whose values are not finite on a side is a full-height hatched bar labelled "NaN"/"Inf"; a step one
 * side never ran is labelled "A only"/"B only". `mark`: the first divergence, outlined in the row of its stage.
 */
export function drawStepDeltas(
  ctx: DrawContext,
  deltas: readonly StepDelta[],
  rows: readonly StageRow[],
  frameRate: number,
  vp: Viewport,
  width: number,
  height: number,
  c: StepLaneColors,
  mark?: { step: number; stage: Stage | undefined },
): void {
  if (!(frameRate > 0) || !(vp.end > vp.start) || rows.length === 0) return;
  const rowHeight = height / rows.length;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  rows.forEach((row, r) => {
    const top = r * rowHeight;
    if (r > 0) {
      ctx.fillStyle = c.muted;
      ctx.fillRect(0, Math.round(top), width, 1);
    }
    drawRow(ctx, deltas, row, frameRate, vp, width, top, rowHeight, c);
    if (mark && mark.stage === row.stage) {
      const [x0, x1] = stepSpan(mark.step, frameRate, vp, width);
      ctx.strokeStyle = c.marker;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.rect(x0 + 1, top + 1, Math.max(2, x1 - x0 - 2), rowHeight - 2);
      ctx.stroke();
    }
  });
}

function drawRow(ctx: DrawContext, deltas: readonly StepDelta[], row: StageRow, frameRate: number, vp: Viewport, width: number, top: number, height: number, c: StepLaneColors): void {
  const { range, tolerance } = row;
  if (row.absent !== undefined) {
    ctx.fillStyle = c.muted;
    ctx.textBaseline = 'middle';
    ctx.fillText(row.absent, 4, top + height / 2);
    ctx.textBaseline = 'top';
    return;
  }
  const yOf = (v: number) => Math.round(top + height - logFraction(v, range) * height) + 0.5;
  ctx.fillStyle = c.grid;
  for (let e = Math.ceil(Math.log10(range.min)); e <= Math.floor(Math.log10(range.max)); e++) ctx.fillRect(0, yOf(10 ** e), width, 1);
  for (const d of deltas) {
    const v = stageDelta(d, row.stage);
    if (!v) continue;
    const [x0, x1] = stepSpan(d.step, frameRate, vp, width);
    if (x1 < 0 || x0 > width) continue;
    const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
    if (v.nonFinite || v.missing) {
      ctx.fillStyle = c.marker;
      ctx.globalAlpha = 0.35;
      ctx.fillRect(x0, top, w, height);
      ctx.globalAlpha = 1;
      if (w >= 14) ctx.fillText(v.nonFinite ? (v.nonFinite.includes('Inf') ? 'Inf' : 'NaN') : `${v.missing === 'A' ? 'B' : 'A'} only`, x0 + 2, top + 2);
      continue;
    }
    if (v.delta === null) continue;
    if (v.delta === 0) {
      ctx.fillStyle = c.muted;
      ctx.fillRect(x0, top + height - ZERO_TICK, w, ZERO_TICK);
      continue;
    }
    const h = logFraction(v.delta, range) * height;
    ctx.fillStyle = tolerance !== undefined && v.delta > tolerance ? c.marker : c.bar;
    ctx.fillRect(x0, top + height - h, w, Math.max(1, h));
  }
  // The tolerance above the bars: a dashed line over a light halo, so it reads across red and blue bars.
  if (tolerance !== undefined && tolerance > 0) {
    const y = yOf(tolerance);
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
