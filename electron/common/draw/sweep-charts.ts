import { escapeHtml as esc } from '../report/escape-html.js';
import { caseKey } from '../sweep/sweep-case.js';
import type { SummaryCase } from '../sweep/sweep-summary.js';
import { niceAxis, niceStep } from './nice-ticks.js';
import { n1, SWEEP_MARGIN as M, svgOpen, xAxis, yAxis } from './sweep-svg.js';

/**
 * The sweep's first-divergent-step histogram as SVG markup, the same in sweep.html (static, no script) and
 * in the studio's sweep dashboard (where a bin is a button that filters the table: `interactive`); the
 * verdict colours and a case's one-line description that both charts use. The scatter: sweep-scatter.ts.
 */

/** Verdict colours, readable on white and on the studio's dark panel. */
export const VERDICT_COLOR: Record<SummaryCase['verdict'], string> = { identical: '#2e8540', 'within-tolerance': '#1f6fd1', diverged: '#d0021b', 'degenerate-audio': '#a35a00', error: '#6b7480' };

/** Bins of whole steps: one step a bin up to 60 steps of range, else a 2/5/10… step wide bin. */
export function stepBins(histogram: { step: number; count: number }[]): { from: number; to: number; count: number }[] {
  if (histogram.length === 0) return [];
  const lo = histogram[0].step;
  const hi = histogram[histogram.length - 1].step;
  const width = hi - lo < 60 ? 1 : Math.max(1, Math.round(niceStep(hi - lo + 1, 40)));
  const start = Math.floor(lo / width) * width;
  const bins = new Map<number, number>();
  for (const h of histogram) {
    const b = start + Math.floor((h.step - start) / width) * width;
    bins.set(b, (bins.get(b) ?? 0) + h.count);
  }
  return [...bins].sort(([x], [y]) => x - y).map(([from, count]) => ({ from, to: from + width - 1, count }));
}

/** A range of first divergent steps, both ends included (a histogram bin). */
export interface StepRange {
  from: number;
  to: number;
}

/**
 * The first-divergent-step histogram: real bins on a step axis with round ticks, counts on a round y axis.
 * `interactive`: each bar is a button (focusable, named, `aria-pressed` when it is `selected`) that the
 * studio turns into a filter; sweep.html's bars are pictures only.
 */
export function stepHistogramSvg(histogram: { step: number; count: number }[], width = 560, height = 220, interactive?: { selected?: StepRange }): string {
  const bins = stepBins(histogram);
  const label = 'Diverged cases by first divergent step';
  if (bins.length === 0) return '';
  const binWidth = bins[0].to - bins[0].from + 1;
  const x0 = bins[0].from - 0.5;
  const x1 = bins[bins.length - 1].to + 0.5;
  const ya = niceAxis(0, Math.max(...bins.map((b) => b.count)), 4);
  const yAx = { ...ya, lo: 0, ticks: ya.ticks.filter((t) => t >= 0) };
  const x = (v: number) => M.left + ((v - x0) / (x1 - x0)) * (width - M.left - M.right);
  const y = (c: number) => height - M.bottom - ((c - yAx.lo) / (yAx.hi - yAx.lo)) * (height - M.top - M.bottom);
  const xStep = Math.max(1, Math.round(niceStep(x1 - x0, Math.max(2, Math.floor((width - M.left - M.right) / 48)))));
  const xTicks: number[] = [];
  for (let t = Math.ceil(x0 / xStep) * xStep; t <= x1; t += xStep) if (t >= 1) xTicks.push(t);
  const bars = bins.map((b) => {
    const name = binWidth === 1 ? `step ${b.from}` : `steps ${b.from}–${b.to}`;
    const left = x(b.from - 0.5);
    const w = Math.max(1, x(b.to + 0.5) - left - 1);
    const title = `${name}: ${b.count} case${b.count === 1 ? '' : 's'}`;
    const pressed = interactive?.selected?.from === b.from && interactive.selected.to === b.to;
    const button = interactive ? ` data-to="${b.to}" tabindex="0" role="button" aria-pressed="${pressed}" aria-label="${esc(`${title}: show only these in the table`)}"` : '';
    return `<rect x="${n1(left + 0.5)}" y="${n1(y(b.count))}" width="${n1(w)}" height="${n1(y(0) - y(b.count))}" fill="${VERDICT_COLOR.diverged}" data-bin="${b.from}"${button} data-testid="sweep-bin"><title>${esc(title)}</title></rect>`;
  });
  return [svgOpen(width, height, label, 'sweep-histogram', interactive ? 'group' : 'img'), yAxis(yAx, y, width, 'cases', height), ...bars, xAxis(xTicks, xStep, x, width, height, binWidth === 1 ? 'first divergent step' : `first divergent step (bins of ${binWidth})`), '</svg>'].join('');
}

/** A case's one-line description (hover title, hover card). */
export function caseTitle(c: SummaryCase): string {
  const f = (v: number | null, d: number) => (v === null ? '—' : Number.isFinite(v) ? v.toFixed(d) : String(v));
  return `${caseKey(c)}: ${c.verdict}${c.firstStep !== null ? ` at step ${c.firstStep} (${c.stage ?? '?'})` : ''}; correlation ${f(c.correlation, 4)}, ΔLU ${f(c.loudnessDeltaLU, 2)}`;
}
