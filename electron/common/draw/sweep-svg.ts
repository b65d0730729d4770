import { escapeHtml as esc } from '../report/escape-html.js';
import type { niceAxis } from './nice-ticks.js';
import { tickLabel } from './nice-ticks.js';

/** Space around the sweep charts' plots (viewBox units). */
export const SWEEP_MARGIN = { left: 52, right: 14, top: 12, bottom: 40 };
const M = SWEEP_MARGIN;

/** A coordinate with one decimal (the charts' markup stays short and byte-stable). */
export const n1 = (v: number) => (Math.round(v * 10) / 10).toString();

/** A chart's opening tag: `role` img for a static picture, group where its parts take focus (the studio's bins). */
export function svgOpen(w: number, h: number, label: string, testId: string, role: 'img' | 'group' = 'img', extra = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="${role}" aria-label="${esc(label)}" data-testid="${testId}"${extra} font-size="11" font-family="system-ui,sans-serif" fill="currentColor">`;
}

/** Horizontal grid lines and labels for a y axis, and its title (centred between `top` and the x axis). */
export function yAxis(axis: ReturnType<typeof niceAxis>, y: (v: number) => number, w: number, label: string, h: number, top = M.top): string {
  const lines = axis.ticks.map((t) => `<line x1="${M.left}" x2="${w - M.right}" y1="${n1(y(t))}" y2="${n1(y(t))}" stroke="currentColor" stroke-opacity="0.15"/><text x="${M.left - 6}" y="${n1(y(t) + 4)}" text-anchor="end" data-tick="y">${tickLabel(t, axis.step)}</text>`);
  const mid = (top + h - M.bottom) / 2;
  return lines.join('') + `<text x="12" y="${n1(mid)}" text-anchor="middle" transform="rotate(-90 12 ${n1(mid)})">${esc(label)}</text>`;
}

/** The x axis line, its ticks and labels, and its title. */
export function xAxis(ticks: number[], step: number, x: (v: number) => number, w: number, h: number, label: string): string {
  const base = h - M.bottom;
  const lines = ticks.map((t) => `<line x1="${n1(x(t))}" x2="${n1(x(t))}" y1="${base}" y2="${base + 4}" stroke="currentColor"/><text x="${n1(x(t))}" y="${base + 16}" text-anchor="middle" data-tick="x">${tickLabel(t, step)}</text>`);
  return `<line x1="${M.left}" x2="${w - M.right}" y1="${base}" y2="${base}" stroke="currentColor"/>` + lines.join('') + `<text x="${n1((M.left + w - M.right) / 2)}" y="${h - 6}" text-anchor="middle">${esc(label)}</text>`;
}
