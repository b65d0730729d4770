import { escapeHtml as esc } from '../escape-html.js';

/** Small static SVG charts for index pages (no script, no request): bars and a scatter plot. */

const n = (v: number) => (Math.round(v * 10) / 10).toString();

const W = 640;
const H = 220;
const M = { left: 48, right: 12, top: 12, bottom: 36 };

/** Counts per integer x (e.g. first divergent step), one bar each, with x and y labels. */
export function barChartSvg(bars: { x: number; count: number }[], xLabel: string, label: string): string {
  const maxCount = Math.max(1, ...bars.map((b) => b.count));
  const xs = bars.map((b) => b.x);
  const lo = Math.min(...xs, 1);
  const hi = Math.max(...xs, lo);
  const slot = (W - M.left - M.right) / (hi - lo + 1);
  const y = (c: number) => H - M.bottom - (c / maxCount) * (H - M.top - M.bottom);
  const parts = bars.map((b) => {
    const x = M.left + (b.x - lo) * slot;
    return `<rect x="${n(x + slot * 0.1)}" y="${n(y(b.count))}" width="${n(slot * 0.8)}" height="${n(H - M.bottom - y(b.count))}" fill="#d0021b"><title>${esc(`${xLabel} ${b.x}: ${b.count}`)}</title></rect>` +
      `<text x="${n(x + slot / 2)}" y="${H - M.bottom + 14}" text-anchor="middle">${b.x}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}" font-size="11" font-family="sans-serif">`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#1d2330"/>`,
    `<text x="${M.left - 6}" y="${M.top + 4}" text-anchor="end">${maxCount}</text><text x="${M.left - 6}" y="${H - M.bottom}" text-anchor="end">0</text>`,
    ...parts,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle">${esc(xLabel)}</text>`,
    '</svg>',
  ].join('');
}

/** One dot per point, coloured by its group, axes spanning the data. */
export function scatterSvg(points: { x: number; y: number; color: string; title: string }[], xLabel: string, yLabel: string, label: string): string {
  const span = (vs: number[]) => {
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
  };
  const [x0, x1] = points.length ? span(points.map((p) => p.x)) : [0, 1];
  const [y0, y1] = points.length ? span(points.map((p) => p.y)) : [0, 1];
  const px = (x: number) => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}" font-size="11" font-family="sans-serif">`,
    `<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="#d8dde3"/>`,
    `<text x="${M.left}" y="${H - M.bottom + 14}">${fmt(x0)}</text><text x="${W - M.right}" y="${H - M.bottom + 14}" text-anchor="end">${fmt(x1)}</text>`,
    `<text x="${M.left - 4}" y="${H - M.bottom}" text-anchor="end">${fmt(y0)}</text><text x="${M.left - 4}" y="${M.top + 8}" text-anchor="end">${fmt(y1)}</text>`,
    ...points.map((p) => `<circle cx="${n(px(p.x))}" cy="${n(py(p.y))}" r="3.5" fill="${p.color}" fill-opacity="0.8"><title>${esc(p.title)}</title></circle>`),
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="12" y="${(M.top + H - M.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(M.top + H - M.bottom) / 2})">${esc(yLabel)}</text>`,
    '</svg>',
  ].join('');
}
