import { divergenceMarker, FIGURE_COLORS as C, FIGURE_FONT, type FigureBox, type FigureContext } from './figure-context.js';
import { niceStep, ticksIn } from './nice-ticks.js';

/** One step of the |Δ| chart: the largest |A − B| of its talker logit statistics (the report's maxStatDiff). */
export interface StepDelta {
  step: number;
  /** null when one side has no such step; NaN when one side's statistic is NaN; 0 when equal. */
  delta: number | null;
}

export interface StepsFigure {
  steps: StepDelta[];
  firstStep: number | null;
  /** The absolute logit tolerance (divergence.tolerances.logitAbs), drawn as a dashed line. */
  tolerance: number;
}

export const STEPS_MARGIN = { left: 56, right: 10, top: 20, bottom: 30 } as const;

/** The log10 range the chart spans: whole decades around the positive deltas and the tolerance. */
export function stepsDecades(fig: StepsFigure): [number, number] {
  const logs = fig.steps.map((s) => s.delta).filter((d): d is number => d !== null && d > 0 && Number.isFinite(d)).map(Math.log10);
  if (fig.tolerance > 0) logs.push(Math.log10(fig.tolerance));
  if (logs.length === 0) return [-8, 0];
  const lo = Math.floor(Math.min(...logs)) - 1;
  const hi = Math.max(lo + 2, Math.ceil(Math.max(...logs)));
  return [lo, hi];
}

/** The x of a step's column centre. */
export function stepX(step: number, fig: StepsFigure, width: number): number {
  const first = fig.steps[0]?.step ?? 1;
  const last = fig.steps[fig.steps.length - 1]?.step ?? first;
  const plot = width - STEPS_MARGIN.left - STEPS_MARGIN.right;
  return STEPS_MARGIN.left + ((step - first + 0.5) / (last - first + 1)) * plot;
}

/**
 * Per-step |Δ| on a log scale: equal steps sit on the bottom line ("0"), NaN steps on a row of their own
 * above the scale ("NaN") in the marker colour, the tolerance dashed, the first divergent step marked.
 */
export function drawSteps(ctx: FigureContext, fig: StepsFigure, box: FigureBox): void {
  const { left, right, top, bottom } = STEPS_MARGIN;
  const plotBottom = box.height - bottom;
  const [lo, hi] = stepsDecades(fig);
  // A NaN (or infinite) |Δ| has no place on the scale: it gets its own row above it, labelled NaN.
  const nanRow = fig.steps.some((s) => s.delta !== null && !Number.isFinite(s.delta)) ? top + 2 : undefined;
  const scaleTop = nanRow === undefined ? top : top + 20;
  const y = (v: number) => plotBottom - ((Math.log10(v) - lo) / (hi - lo)) * (plotBottom - scaleTop);
  ctx.save();
  ctx.fillStyle = C.background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.font = FIGURE_FONT;
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  if (nanRow !== undefined) ctx.fillText('NaN', left - 6, nanRow);
  const every = Math.max(1, Math.ceil((hi - lo) / Math.max(2, Math.floor((plotBottom - scaleTop) / 22))));
  for (let k = lo; k <= hi; k += every) {
    ctx.fillStyle = C.grid;
    ctx.fillRect(left, Math.round(y(10 ** k)), box.width - left - right, 1);
    ctx.fillStyle = C.fg;
    ctx.fillText(k === lo ? '0' : `1e${k}`, left - 6, y(10 ** k));
  }
  const first = fig.steps[0]?.step ?? 1;
  const last = fig.steps[fig.steps.length - 1]?.step ?? first;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const { step } = niceStep(last - first + 1, Math.max(2, Math.floor((box.width - left - right) / 50)));
  for (const s of ticksIn(first, last, Math.max(1, step))) ctx.fillText(String(s), stepX(s, fig, box.width), plotBottom + 4);
  ctx.fillText('step', left + (box.width - left - right) / 2, plotBottom + 16);
  if (fig.tolerance > 0) {
    ctx.strokeStyle = C.tolerance;
    ctx.lineWidth = 1;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.moveTo(left, Math.round(y(fig.tolerance)) + 0.5);
    ctx.lineTo(box.width - right, Math.round(y(fig.tolerance)) + 0.5);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = C.tolerance;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`tolerance ${fig.tolerance}`, box.width - right - 2, y(fig.tolerance) - 2);
  }
  if (fig.firstStep !== null) {
    const x = stepX(fig.firstStep, fig, box.width);
    divergenceMarker(ctx, x, { left, right, top, bottom: plotBottom }, box.width, `first divergence: step ${fig.firstStep}`);
  }
  const size = Math.max(2, Math.min(6, Math.floor((box.width - left - right) / Math.max(1, fig.steps.length)) - 1));
  for (const s of fig.steps) {
    if (s.delta === null) continue;
    const x = stepX(s.step, fig, box.width);
    const nan = !Number.isFinite(s.delta);
    const py = nan && nanRow !== undefined ? nanRow : y(Math.max(10 ** lo, s.delta));
    ctx.fillStyle = nan || (fig.firstStep !== null && s.step >= fig.firstStep && s.delta > fig.tolerance) ? C.marker : C.a;
    ctx.fillRect(Math.round(x - size / 2), Math.round(py - size / 2), size, size);
  }
  ctx.restore();
}
