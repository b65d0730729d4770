import { escapeHtml as esc } from '../report/escape-html.js';
import { caseKey } from '../sweep/sweep-case.js';
import type { SummaryCase } from '../sweep/sweep-summary.js';
import type { DrawContext } from './draw-context.js';
import { niceAxis, type NiceAxis } from './nice-ticks.js';
import { caseTitle, VERDICT_COLOR } from './sweep-charts.js';
import { n1, SWEEP_MARGIN, svgOpen, xAxis, yAxis } from './sweep-svg.js';

// The scatter's caption (studio and sweep.html) wraps to two lines at 1440 and 1024 px wide; a deeper
// top margin keeps its second line off the plot frame.
const M = { ...SWEEP_MARGIN, top: 26 };

/**
 * The correlation (x) × ΔLU B − A (y) scatter of a sweep, one dot per case coloured by verdict. Its
 * geometry is computed once (scatterPlot); sweep.html writes it as SVG circles (scatterSvg, static), the
 * studio draws the frame and axes as SVG (scatterFrameSvg) and the dots on a canvas (drawScatterDots),
 * finding the dot under the pointer with scatterDotAt: 10,000 cases are a few thousand dots, too many
 * DOM elements to filter smoothly.
 */

export type ScatterDomain = { x: [number, number]; y: [number, number] };
type Placed = SummaryCase & { correlation: number; loudnessDeltaLU: number };

/** One dot: the cases of one verdict on one pixel share it (`count` of them; `c` is the first). */
export interface ScatterDot {
  x: number;
  y: number;
  r: number;
  color: string;
  count: number;
  c: SummaryCase;
}

export interface ScatterPlot {
  width: number;
  height: number;
  xa: NiceAxis;
  ya: NiceAxis;
  /** In drawing order: diverged and errors last, on top of the many identical ones. */
  dots: ScatterDot[];
  /** Pixel → data (the studio's brush). */
  invert(px: number, py: number): { x: number; y: number };
}

const DRAW_ORDER: Record<SummaryCase['verdict'], number> = { identical: 0, 'within-tolerance': 1, error: 2, 'degenerate-audio': 3, diverged: 4 };
const DOT_ALPHA = 0.75;

/** Cases the scatter can place: a finite correlation and ΔLU. */
export function scatterCases(cases: SummaryCase[]): Placed[] {
  return cases.filter((c): c is Placed => c.correlation !== null && Number.isFinite(c.correlation) && c.loudnessDeltaLU !== null && Number.isFinite(c.loudnessDeltaLU));
}

function extent(pts: Placed[]): { x0: number; x1: number; y0: number; y1: number } {
  // A loop, not Math.min(...xs): 10,000 arguments is near the engine's limit.
  let [x0, x1, y0, y1] = [1, 1, 0, 0];
  for (const c of pts) {
    x0 = Math.min(x0, c.correlation);
    x1 = Math.max(x1, c.correlation);
    y0 = Math.min(y0, c.loudnessDeltaLU);
    y1 = Math.max(y1, c.loudnessDeltaLU);
  }
  return { x0, x1, y0, y1 };
}

/** The scatter at `width` × `height` over the whole data (round ticks, a margin so no dot sits on the frame) or over `domain` (a zoom). */
export function scatterPlot(cases: SummaryCase[], width: number, height: number, domain?: ScatterDomain): ScatterPlot {
  const pts = scatterCases(cases);
  const e = extent(pts);
  const xa = niceAxis(domain?.x[0] ?? e.x0, domain?.x[1] ?? e.x1, Math.max(2, Math.floor((width - M.left - M.right) / 70)));
  const ya = niceAxis(domain?.y[0] ?? e.y0, domain?.y[1] ?? e.y1, 4);
  const plotW = width - M.left - M.right;
  const plotH = height - M.top - M.bottom;
  const x = (v: number) => M.left + ((v - xa.lo) / (xa.hi - xa.lo)) * plotW;
  const y = (v: number) => height - M.bottom - ((v - ya.lo) / (ya.hi - ya.lo)) * plotH;
  // Keyed by verdict and pixel as one number (a string key per case was most of a 10,000-case redraw).
  const at = new Map<number, ScatterDot>();
  for (const c of pts) {
    if (c.correlation < xa.lo || c.correlation > xa.hi || c.loudnessDeltaLU < ya.lo || c.loudnessDeltaLU > ya.hi) continue;
    const px = x(c.correlation);
    const py = y(c.loudnessDeltaLU);
    const pixel = (DRAW_ORDER[c.verdict] * 65536 + Math.round(px)) * 65536 + Math.round(py);
    const seen = at.get(pixel);
    if (seen) seen.count++;
    else at.set(pixel, { x: Math.round(px * 10) / 10, y: Math.round(py * 10) / 10, r: 3.5, color: VERDICT_COLOR[c.verdict], count: 1, c });
  }
  const dots = [...at.values()].sort((p, q) => DRAW_ORDER[p.c.verdict] - DRAW_ORDER[q.c.verdict]);
  for (const d of dots) if (d.count > 1) d.r = 4.5;
  return {
    width,
    height,
    xa,
    ya,
    dots,
    invert: (px, py) => ({ x: xa.lo + ((px - M.left) / plotW) * (xa.hi - xa.lo), y: ya.lo + ((height - M.bottom - py) / plotH) * (ya.hi - ya.lo) }),
  };
}

/** A dot's one-line description (its title in sweep.html). */
export function dotTitle(d: ScatterDot): string {
  return d.count > 1 ? `${d.count} ${d.c.verdict} cases here, e.g. ${caseTitle(d.c)}` : caseTitle(d.c);
}

/**
 * The frame, axes and titles without the dots. The svg carries the plot box and the axis ends
 * (`data-plot`, `data-domain`, viewBox units) so a test can put the pointer on a given case's dot.
 */
export function scatterFrameSvg(p: ScatterPlot, dots = ''): string {
  const [plotW, plotH] = [p.width - M.left - M.right, p.height - M.top - M.bottom];
  const where = ` data-plot="${M.left} ${M.top} ${plotW} ${plotH}" data-domain="${p.xa.lo} ${p.xa.hi} ${p.ya.lo} ${p.ya.hi}"`;
  const x = (v: number) => M.left + ((v - p.xa.lo) / (p.xa.hi - p.xa.lo)) * plotW;
  const y = (v: number) => p.height - M.bottom - ((v - p.ya.lo) / (p.ya.hi - p.ya.lo)) * plotH;
  return [
    svgOpen(p.width, p.height, 'Correlation against loudness difference, one dot per case', 'sweep-scatter', 'img', where),
    `<rect x="${M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="currentColor" stroke-opacity="0.3"/>`,
    yAxis(p.ya, y, p.width, 'ΔLU B − A', p.height, M.top),
    xAxis(p.xa.ticks, p.xa.step, x, p.width, p.height, 'correlation (lag 0)'),
    dots,
    '</svg>',
  ].join('');
}

/** The whole scatter as SVG (sweep.html: static, a title per dot). */
export function scatterSvg(cases: SummaryCase[], width = 560, height = 260, domain?: ScatterDomain): string {
  const p = scatterPlot(cases, width, height, domain);
  const dots = p.dots.map((d) => `<circle cx="${n1(d.x)}" cy="${n1(d.y)}" r="${d.r}" fill="${d.color}" fill-opacity="${DOT_ALPHA}" data-key="${esc(caseKey(d.c))}" data-count="${d.count}" data-testid="sweep-dot"><title>${esc(dotTitle(d))}</title></circle>`);
  return scatterFrameSvg(p, dots.join(''));
}

/** The dots on a canvas whose units are the plot's (viewBox) units. */
export function drawScatterDots(ctx: DrawContext, p: ScatterPlot): void {
  ctx.save();
  ctx.globalAlpha = DOT_ALPHA;
  for (const d of p.dots) {
    ctx.fillStyle = d.color;
    ctx.beginPath();
    ctx.arc(d.x, d.y, d.r, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
}

/** The dot under a point (plot units): the nearest within its radius and 2 units of slack, the top one on a tie. */
export function scatterDotAt(p: ScatterPlot, x: number, y: number): ScatterDot | undefined {
  let best: ScatterDot | undefined;
  let bestD = Infinity;
  for (const d of p.dots) {
    const dd = (d.x - x) ** 2 + (d.y - y) ** 2;
    if (dd <= (d.r + 2) ** 2 && dd <= bestD) [best, bestD] = [d, dd];
  }
  return best;
}
