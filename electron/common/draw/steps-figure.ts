import { integerIncrs } from './axis-ticks.js';
import { inPlot, markerLabel, type DrawBox, type DrawContext, type Margins, type Palette } from './draw-context.js';
import { drawMarks } from './marks.js';
import { logFraction, STAGE_LABELS, stageOfDivergence, stageRows, type StepDelta, type VerdictCodebook } from './step-delta.js';
import type { DivergenceStage } from '../forensics/divergence.js';
import type { ReportPageData } from '../report/html/report-page-data.js';
import { drawStepDeltas } from './steps.js';
import { timeToX, type Viewport } from './viewport.js';

/**
 * report.html's per-step |Δ| figure and steps.png: the studio's step lane (drawStepDeltas, the same
 * log scale and colours) on an axis of steps instead of time, with decade, step and tolerance labels.
 */
export interface StepsFigure {
  deltas: readonly StepDelta[];
  firstStep: number | null;
  /** The stage the first divergence is at (its row is outlined); null or absent for none. */
  stage?: DivergenceStage | null;
  /** The absolute logit tolerance (divergence.tolerances.logitAbs), drawn dashed; 0 for none. */
  tolerance: number;
  /** The audio tolerance (divergence.tolerances.audioAbs), for a vocoder row. */
  audioTolerance?: number;
  /** Why the vocoder row is empty (vocoderAbsentWords); absent when the deltas have it. */
  vocoderAbsent?: string;
  /** The verdict's code-predictor codebook, named beside the row (which plots the worst codebook). */
  verdictCodebook?: VerdictCodebook;
}

/** The figure of a report page's steps (report.html and steps.png draw the same one). */
export function stepsFigureOf(
  page: Pick<ReportPageData, 'steps' | 'firstStep' | 'stage' | 'logitTolerance' | 'audioTolerance' | 'vocoderAbsent' | 'verdictCodebook'>,
): StepsFigure {
  return {
    deltas: page.steps,
    firstStep: page.firstStep,
    stage: page.stage,
    tolerance: page.logitTolerance,
    audioTolerance: page.audioTolerance,
    vocoderAbsent: page.vocoderAbsent ?? undefined,
    verdictCodebook: page.verdictCodebook ?? undefined,
  };
}

export const STEPS_MARGIN: Margins = { left: 56, right: 10, top: 20, bottom: 30 };

/** The figure's window in steps: step N spans [N − 1, N), as frame N spans [(N − 1)/fps, N/fps) on the timeline. */
export function stepsView(fig: StepsFigure): Viewport {
  const first = fig.deltas[0]?.step ?? 1;
  const last = fig.deltas[fig.deltas.length - 1]?.step ?? first;
  return { start: first - 1, end: last };
}

/** The x where step N's bar starts, which is where its divergence marker stands. */
export function stepsFigureX(step: number, fig: StepsFigure, width: number): number {
  return STEPS_MARGIN.left + timeToX(stepsView(fig), width - STEPS_MARGIN.left - STEPS_MARGIN.right, step - 1);
}

export function drawStepsFigure(ctx: DrawContext, fig: StepsFigure, box: DrawBox, c: Palette): void {
  const { left, right, top, bottom } = STEPS_MARGIN;
  const w = box.width - left - right;
  const h = box.height - top - bottom;
  const vp = stepsView(fig);
  const positive = (t: number | undefined) => (t !== undefined && t > 0 ? t : undefined);
  const rows = stageRows(fig.deltas, { logitAbs: positive(fig.tolerance), audioAbs: positive(fig.audioTolerance) }, fig.vocoderAbsent);
  const mark = fig.firstStep === null ? undefined : { step: fig.firstStep, stage: stageOfDivergence(fig.stage ?? null) };
  ctx.save();
  ctx.fillStyle = c.background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.font = c.font;
  inPlot(ctx, left, top, w, h, () => {
    drawStepDeltas(ctx, fig.deltas, rows, 1, vp, w, h, { bar: c.diff, marker: c.marker, grid: c.grid, muted: c.muted }, mark);
    drawMarks(ctx, vp, w, h, { divergence: fig.firstStep === null ? undefined : fig.firstStep - 1 }, c);
  });
  const rowHeight = h / Math.max(1, rows.length);
  rows.forEach((row, r) => {
    const rowTop = top + r * rowHeight;
    const yOf = (v: number) => rowTop + rowHeight - logFraction(v, row.range) * rowHeight;
    if (row.absent !== undefined) {
      ctx.fillStyle = c.muted;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(STAGE_LABELS[row.stage], left + 4, rowTop + 3);
      return;
    }
    ctx.fillStyle = c.fg;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const decades: number[] = [];
    // Below the first row, its top decade would sit on the row above's "0": left out.
    const highest = Math.floor(Math.log10(row.range.max)) - (r > 0 ? 1 : 0);
    for (let e = Math.ceil(Math.log10(row.range.min)) + 1; e <= highest; e++) decades.push(e);
    // Every decade where the row has room, else every other one; the floor is where |Δ| = 0 is drawn.
    const every = decades.length * 12 > rowHeight ? 2 : 1;
    for (const e of decades) if ((e - decades[0]) % every === 0) ctx.fillText(`1e${e}`, left - 6, yOf(10 ** e));
    ctx.fillText('0', left - 6, rowTop + rowHeight - 4);
    ctx.fillStyle = c.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    // On a plate of the background, as the tolerance's label, so it reads over the bars.
    const label = row.stage === 'code-predictor' ? codePredictorLabel(fig, mark?.stage) : STAGE_LABELS[row.stage];
    ctx.fillStyle = c.background;
    ctx.globalAlpha = 0.9;
    ctx.fillRect(left + 2, rowTop + 2, ctx.measureText(label).width + 4, 14);
    ctx.globalAlpha = 1;
    ctx.fillStyle = c.muted;
    ctx.fillText(label, left + 4, rowTop + 3);
    if (row.tolerance === undefined || row.tolerance < row.range.min || row.tolerance > row.range.max) return;
    // On a plate of the background, so the label reads over red bars too.
    const text = `tolerance ${row.tolerance}`;
    const y = yOf(row.tolerance) - 3;
    const tw = ctx.measureText(text).width;
    ctx.fillStyle = c.background;
    ctx.globalAlpha = 0.9;
    ctx.fillRect(left + w - tw - 6, y - 13, tw + 6, 13);
    ctx.globalAlpha = 1;
    ctx.fillStyle = c.fg;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(text, left + w - 3, y);
  });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const perStep = w / Math.max(1, vp.end - vp.start);
  const every = integerIncrs().find((n) => n * perStep >= 40) ?? vp.end - vp.start;
  for (let s = vp.start + 1; s <= vp.end; s++) {
    if (s === vp.start + 1 || s % every === 0) ctx.fillText(String(s), left + timeToX(vp, w, s - 0.5), top + h + 4);
  }
  ctx.fillText('step', left + w / 2, top + h + 16);
  if (fig.firstStep !== null) markerLabel(ctx, stepsFigureX(fig.firstStep, fig, box.width), left, w, `first divergence: step ${fig.firstStep}`, c.marker);
  ctx.restore();
}

/** The code predictor row's name; where the verdict's codebook is not the worst one at its step, both. */
function codePredictorLabel(fig: StepsFigure, markedStage: string | undefined): string {
  const v = fig.verdictCodebook;
  const worst = v && markedStage === 'code-predictor' ? fig.deltas.find((d) => d.step === v.step)?.codePredictor?.codebook : undefined;
  return v && worst !== undefined && worst !== v.codebook ? `code predictor (worst codebook; at step ${v.step} the verdict's is codebook ${v.codebook}, the worst ${worst})` : 'code predictor (worst codebook)';
}
