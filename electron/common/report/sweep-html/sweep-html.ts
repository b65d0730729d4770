import { stepHistogramSvg, VERDICT_COLOR } from '../../draw/sweep-charts.js';
import { scatterCases, scatterSvg } from '../../draw/sweep-scatter.js';
import { codebookLine, stageBreakdown } from '../../sweep/sweep-breakdown.js';
import { caseKey } from '../../sweep/sweep-case.js';
import { sweepNumber } from '../../sweep/sweep-number.js';
import type { SweepSummary } from '../../sweep/sweep-summary.js';
import { escapeHtml as esc } from '../escape-html.js';
import { staticPage } from '../html/static-page.js';


const STYLE = `body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;color:#1d2330;margin:0}
main{max-width:1100px;margin:0 auto;padding:16px 24px}h1{font-size:1.3rem}h2{font-size:1.05rem;margin-top:1.4em}
table{border-collapse:collapse}th,td{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid #d8dde3}th{color:#5b6570;font-weight:normal}
.key span{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 12px}
.charts{display:flex;flex-wrap:wrap;gap:8px 32px}.charts section{flex:1 1 440px;min-width:0}.charts h2{margin-top:.6em}svg{max-width:100%;height:auto}`;

/**
 * sweep.html, beside sweep.json and sweep.md (the merge's folder): verdict counts, the first-divergent-step
 * histogram, a scatter of correlation against loudness difference per case (coloured by verdict; both charts drawn by
 * draw/sweep-charts.ts and draw/sweep-scatter.ts, as in the studio's sweep dashboard), the stage and codebook breakdown, and the
 * worst cases, each linked to its fixture's report.html, or its report.md where the fixtures were written
 * without report.html (no built report page); fixture folders are relative to the merge's folder, so the
 * links work from file://. Static HTML and inline SVG: no script, no request. Same inputs, same bytes.
 */
export function sweepHtml(s: SweepSummary, fixturePage: 'report.html' | 'report.md' = 'report.html'): string {
  const byKey = new Map(s.cases.map((c) => [caseKey(c), c] as const));
  const shown = scatterCases(s.cases).length;
  const worst = s.worst.map((w) => {
    const c = byKey.get(w.key);
    const name = w.fixture ? `<a href="${esc(`${w.fixture.split('/').map(encodeURIComponent).join('/')}/${fixturePage}`)}">${esc(w.key)}</a>` : esc(w.key);
    return `<tr><td>${name}</td><td>${esc(c?.verdict ?? '—')}</td><td>${c?.firstStep ?? '—'}</td><td>${esc(c?.stage ?? '—')}</td><td>${sweepNumber(c?.correlation ?? null, 6)}</td><td>${sweepNumber(c?.loudnessDeltaLU ?? null, 3)}</td></tr>`;
  });
  const breakdown = stageBreakdown(s.cases);
  const counts = Object.entries(s.counts).map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>`);
  return staticPage(`sweep: ${s.a} vs ${s.b}`, STYLE, [
    `<h1>${esc(`Sweep: ${s.a} vs ${s.b}, ${s.totalCases} cases`)}</h1>`,
    `<table data-section="counts"><tbody>${counts.join('')}</tbody></table>`,
    '<div class="charts"><section>',
    '<h2>First divergent step</h2>',
    s.firstStep.histogram.length ? stepHistogramSvg(s.firstStep.histogram, 500, 240) : '<p>No case diverged.</p>',
    '</section><section>',
    '<h2>Correlation against loudness difference, per case</h2>',
    `<p class="key">${Object.entries(VERDICT_COLOR).map(([v, c]) => `<span style="background:${c}"></span>${esc(v)}`).join('')}; cases without audio metrics, left out: ${s.cases.length - shown}</p>`,
    scatterSvg(s.cases, 500, 260),
    '</section></div>',
    '<h2>Where the diverged cases first differ</h2>',
    breakdown.length
      ? `<table data-section="stages"><thead><tr><th>Stage</th><th>Cases</th><th>Near-tie flips</th><th>By codebook</th></tr></thead><tbody>${breakdown.map((r) => `<tr><td>${esc(r.stage)}</td><td>${r.cases}</td><td>${r.nearTie}</td><td>${esc(codebookLine(r))}</td></tr>`).join('')}</tbody></table>`
      : '<p>No case diverged.</p>',
    '<h2>Worst cases</h2>',
    worst.length
      ? `<table data-section="worst"><thead><tr><th>Case (its ${fixturePage})</th><th>Verdict</th><th>First step</th><th>Stage</th><th>Correlation</th><th>ΔLU</th></tr></thead><tbody>${worst.join('')}</tbody></table>`
      : '<p>None.</p>',
  ]);
}
