import { escapeHtml as esc } from '../report/escape-html.js';
import { caseKey } from '../sweep/sweep-case.js';
import type { SummaryCase } from '../sweep/sweep-summary.js';
import { niceAxis, niceStep, tickLabel } from './nice-ticks.js';

/**
 * The sweep's two charts as SVG markup: the same strings in sweep.html (static, no script) and in the
 * studio's sweep dashboard (which adds hover and click by the `data-key` / `data-bin` attributes).
 */

/** Verdict colours, readable on white and on the studio's dark panel. */
export const VERDICT_COLOR: Record<SummaryCase['verdict'], string> = { identical: '#2e8540', 'within-tolerance': '#1f6fd1', diverged: '#d0021b', error: '#6b7480' };

const DRAW_ORDER: Record<SummaryCase['verdict'], number> = { identical: 0, 'within-tolerance': 1, error: 2, diverged: 3 };
const M = { left: 52, right: 14, top: 12, bottom: 40 };
const n1 = (v: number) => (Math.round(v * 10) / 10).toString();

function svgOpen(w: number, h: number, label: string, testId: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(label)}" data-testid="${testId}" font-size="11" font-family="system-ui,sans-serif" fill="currentColor">`;
}

/** Horizontal grid lines and labels for a y axis; vertical ones for an x axis. */
function yAxis(axis: ReturnType<typeof niceAxis>, y: (v: number) => number, w: number, label: string, h: number): string {
  const lines = axis.ticks.map((t) => `<line x1="${M.left}" x2="${w - M.right}" y1="${n1(y(t))}" y2="${n1(y(t))}" stroke="currentColor" stroke-opacity="0.15"/><text x="${M.left - 6}" y="${n1(y(t) + 4)}" text-anchor="end" data-tick="y">${tickLabel(t, axis.step)}</text>`);
  const mid = (M.top + h - M.bottom) / 2;
  return lines.join('') + `<text x="12" y="${n1(mid)}" text-anchor="middle" transform="rotate(-90 12 ${n1(mid)})">${esc(label)}</text>`;
}

function xAxis(ticks: number[], step: number, x: (v: number) => number, w: number, h: number, label: string): string {
  const base = h - M.bottom;
  const lines = ticks.map((t) => `<line x1="${n1(x(t))}" x2="${n1(x(t))}" y1="${base}" y2="${base + 4}" stroke="currentColor"/><text x="${n1(x(t))}" y="${base + 16}" text-anchor="middle" data-tick="x">${tickLabel(t, step)}</text>`);
  return `<line x1="${M.left}" x2="${w - M.right}" y1="${base}" y2="${base}" stroke="currentColor"/>` + lines.join('') + `<text x="${n1((M.left + w - M.right) / 2)}" y="${h - 6}" text-anchor="middle">${esc(label)}</text>`;
}

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

/** The first-divergent-step histogram: real bins on a step axis with round ticks, counts on a round y axis. */
export function stepHistogramSvg(histogram: { step: number; count: number }[], width = 560, height = 220): string {
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
    return `<rect x="${n1(left + 0.5)}" y="${n1(y(b.count))}" width="${n1(w)}" height="${n1(y(0) - y(b.count))}" fill="${VERDICT_COLOR.diverged}" data-bin="${b.from}" data-testid="sweep-bin"><title>${esc(`${name}: ${b.count} case${b.count === 1 ? '' : 's'}`)}</title></rect>`;
  });
  return [svgOpen(width, height, label, 'sweep-histogram'), yAxis(yAx, y, width, 'cases', height), ...bars, xAxis(xTicks, xStep, x, width, height, binWidth === 1 ? 'first divergent step' : `first divergent step (bins of ${binWidth})`), '</svg>'].join('');
}

/** Cases the scatter can place: a finite correlation and ΔLU. */
export function scatterCases(cases: SummaryCase[]): (SummaryCase & { correlation: number; loudnessDeltaLU: number })[] {
  return cases.filter((c): c is SummaryCase & { correlation: number; loudnessDeltaLU: number } => c.correlation !== null && Number.isFinite(c.correlation) && c.loudnessDeltaLU !== null && Number.isFinite(c.loudnessDeltaLU));
}

/** A case's one-line description (hover title, hover card). */
export function caseTitle(c: SummaryCase): string {
  const f = (v: number | null, d: number) => (v === null ? '—' : Number.isFinite(v) ? v.toFixed(d) : String(v));
  return `${caseKey(c)}: ${c.verdict}${c.firstStep !== null ? ` at step ${c.firstStep} (${c.stage ?? '?'})` : ''}; correlation ${f(c.correlation, 4)}, ΔLU ${f(c.loudnessDeltaLU, 2)}`;
}

/**
 * Correlation (x) against ΔLU B − A (y), one dot per case coloured by verdict (cases of one verdict on
 * the same pixel share a dot, `data-count` of them), round ticks on both axes with a margin so no dot
 * sits on the frame. `domain` zooms to a window (the studio's brush).
 */
export function scatterSvg(cases: SummaryCase[], width = 560, height = 260, domain?: ScatterDomain): string {
  const pts = scatterCases(cases);
  const { xa, ya, x, y } = scatterAxes(pts, width, height, domain);
  const inside = pts.filter((c) => c.correlation >= xa.lo && c.correlation <= xa.hi && c.loudnessDeltaLU >= ya.lo && c.loudnessDeltaLU <= ya.hi);
  // One dot per verdict and pixel: thousands of identical cases at (1, 0) are one dot that says how many.
  const dotsAt = new Map<string, { c: (typeof inside)[number]; cx: string; cy: string; n: number }>();
  for (const c of inside) {
    const [cx, cy] = [n1(x(c.correlation)), n1(y(c.loudnessDeltaLU))];
    const at = `${c.verdict} ${Math.round(x(c.correlation))} ${Math.round(y(c.loudnessDeltaLU))}`;
    const seen = dotsAt.get(at);
    if (seen) seen.n++;
    else dotsAt.set(at, { c, cx, cy, n: 1 });
  }
  // Diverged and errors drawn last, on top of the many identical ones.
  const dots = [...dotsAt.values()]
    .sort((p, q) => DRAW_ORDER[p.c.verdict] - DRAW_ORDER[q.c.verdict])
    .map(({ c, cx, cy, n }) => `<circle cx="${cx}" cy="${cy}" r="${n > 1 ? 4.5 : 3.5}" fill="${VERDICT_COLOR[c.verdict]}" fill-opacity="0.75" data-key="${esc(caseKey(c))}" data-count="${n}" data-testid="sweep-dot"><title>${esc(n > 1 ? `${n} ${c.verdict} cases here, e.g. ${caseTitle(c)}` : caseTitle(c))}</title></circle>`);
  return [
    svgOpen(width, height, 'Correlation against loudness difference, one dot per case', 'sweep-scatter'),
    `<rect x="${M.left}" y="${M.top}" width="${width - M.left - M.right}" height="${height - M.top - M.bottom}" fill="none" stroke="currentColor" stroke-opacity="0.3"/>`,
    yAxis(ya, y, width, 'ΔLU B − A', height),
    xAxis(xa.ticks, xa.step, x, width, height, 'correlation (lag 0)'),
    ...dots,
    '</svg>',
  ].join('');
}

export type ScatterDomain = { x: [number, number]; y: [number, number] };

/** The scatter's axes (round ticks, the whole data or `domain`) and data → pixel maps. */
function scatterAxes(pts: { correlation: number; loudnessDeltaLU: number }[], width: number, height: number, domain: ScatterDomain | undefined) {
  const xs = pts.map((c) => c.correlation);
  const ys = pts.map((c) => c.loudnessDeltaLU);
  const xa = niceAxis(domain?.x[0] ?? Math.min(1, ...xs), domain?.x[1] ?? Math.max(...xs, 1), Math.max(2, Math.floor((width - M.left - M.right) / 70)));
  const ya = niceAxis(domain?.y[0] ?? Math.min(0, ...ys), domain?.y[1] ?? Math.max(0, ...ys), 4);
  const plotW = width - M.left - M.right;
  const plotH = height - M.top - M.bottom;
  return {
    xa,
    ya,
    x: (v: number) => M.left + ((v - xa.lo) / (xa.hi - xa.lo)) * plotW,
    y: (v: number) => height - M.bottom - ((v - ya.lo) / (ya.hi - ya.lo)) * plotH,
    /** Pixel → data, for a brush drawn on the chart. */
    invert: (px: number, py: number) => ({ x: xa.lo + ((px - M.left) / plotW) * (xa.hi - xa.lo), y: ya.lo + ((height - M.bottom - py) / plotH) * (ya.hi - ya.lo) }),
  };
}

/** Pixel → data on a scatter drawn at `width` × `height` over `domain` (the studio's brush to zoom). */
export function scatterInvert(cases: SummaryCase[], width: number, height: number, domain: ScatterDomain | undefined): (px: number, py: number) => { x: number; y: number } {
  return scatterAxes(scatterCases(cases), width, height, domain).invert;
}
