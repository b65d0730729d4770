import { caseKey } from '../../sweep/sweep-case.js';
import type { SummaryCase, SweepSummary } from '../../sweep/sweep-summary.js';
import { barChartSvg, scatterSvg } from './svg-charts.js';
import { escapeHtml as esc } from '../escape-html.js';
import { staticPage } from '../html/static-page.js';

const VERDICT_COLOR: Record<string, string> = { identical: '#2e8540', 'within-tolerance': '#1f6fd1', diverged: '#d0021b', error: '#5b6570' };
const num = (v: number | null, digits: number) => (v === null ? '—' : Number.isFinite(v) ? v.toFixed(digits) : String(v));

const STYLE = `body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;color:#1d2330;margin:0}
main{max-width:1100px;margin:0 auto;padding:16px 24px}h1{font-size:1.3rem}h2{font-size:1.05rem;margin-top:1.4em}
table{border-collapse:collapse}th,td{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid #d8dde3}th{color:#5b6570;font-weight:normal}
.key span{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 12px}`;

/**
 * sweep.html, beside sweep.json and sweep.md (the merge's folder): verdict counts, the first-divergent-step
 * histogram, a scatter of correlation against loudness difference per case (coloured by verdict), and the
 * worst cases, each linked to its fixture's report.html, or its report.md where the fixtures were written
 * without report.html (no built report page); fixture folders are relative to the merge's folder, so the
 * links work from file://. Static HTML and inline SVG: no script, no request. Same inputs, same bytes.
 */
export function sweepHtml(s: SweepSummary, fixturePage: 'report.html' | 'report.md' = 'report.html'): string {
  const byKey = new Map(s.cases.map((c) => [caseKey(c), c] as const));
  const points = s.cases
    .filter((c): c is SummaryCase & { correlation: number; loudnessDeltaLU: number } => Number.isFinite(c.correlation) && Number.isFinite(c.loudnessDeltaLU) && c.correlation !== null && c.loudnessDeltaLU !== null)
    .map((c) => ({ x: c.loudnessDeltaLU, y: c.correlation, color: VERDICT_COLOR[c.verdict] ?? '#5b6570', title: `${caseKey(c)}: ${c.verdict}` }));
  const worst = s.worst.map((w) => {
    const c = byKey.get(w.key);
    const name = w.fixture ? `<a href="${esc(`${w.fixture.split('/').map(encodeURIComponent).join('/')}/${fixturePage}`)}">${esc(w.key)}</a>` : esc(w.key);
    return `<tr><td>${name}</td><td>${esc(c?.verdict ?? '—')}</td><td>${c?.firstStep ?? '—'}</td><td>${esc(c?.stage ?? '—')}</td><td>${num(c?.correlation ?? null, 6)}</td><td>${num(c?.loudnessDeltaLU ?? null, 3)}</td></tr>`;
  });
  const counts = Object.entries(s.counts).map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>`);
  return staticPage(`sweep: ${s.a} vs ${s.b}`, STYLE, [
    `<h1>${esc(`Sweep: ${s.a} vs ${s.b}, ${s.totalCases} cases`)}</h1>`,
    `<table data-section="counts"><tbody>${counts.join('')}</tbody></table>`,
    '<h2>First divergent step</h2>',
    s.firstStep.histogram.length
      ? barChartSvg(s.firstStep.histogram.map((h) => ({ x: h.step, count: h.count })), 'first divergent step', 'Diverged cases by first divergent step')
      : '<p>No case diverged.</p>',
    '<h2>Correlation against loudness difference, per case</h2>',
    `<p class="key">${Object.entries(VERDICT_COLOR).map(([v, c]) => `<span style="background:${c}"></span>${esc(v)}`).join('')}; cases without audio metrics, left out: ${s.cases.length - points.length}</p>`,
    scatterSvg(points, 'loudness B − A (LU)', 'correlation', 'Correlation against loudness difference per case'),
    '<h2>Worst cases</h2>',
    worst.length
      ? `<table data-section="worst"><thead><tr><th>Case (its ${fixturePage})</th><th>Verdict</th><th>First step</th><th>Stage</th><th>Correlation</th><th>ΔLU</th></tr></thead><tbody>${worst.join('')}</tbody></table>`
      : '<p>None.</p>',
  ]);
}
