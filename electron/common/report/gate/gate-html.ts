import type { GateEntry, GateRun } from './gate-entry.js';
import { escapeHtml as esc } from '../escape-html.js';
import { staticPage } from '../html/static-page.js';

const STYLE = `body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;color:#1d2330;margin:0}
main{max-width:1200px;margin:0 auto;padding:16px 24px}h1{font-size:1.3rem}table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:4px 10px 4px 0;border-bottom:1px solid #d8dde3}th{color:#5b6570;font-weight:normal}
.pass{color:#1d6b31;font-weight:600}.fail{color:#9b0e1f;font-weight:600}ul{margin:0;padding-left:18px}.muted{color:#5b6570}`;

function row(e: GateEntry): string {
  const name = e.reportHref ? `<a href="${esc(e.reportHref)}">${esc(e.dir)}</a>` : `${esc(e.dir)} <span class="muted">(no report.html)</span>`;
  const changed = e.problems.length ? `<ul>${e.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>` : '<span class="muted">nothing</span>';
  return `<tr data-fixture="${esc(e.dir)}"><td class="${e.ok ? 'pass' : 'fail'}">${e.ok ? 'PASS' : 'FAIL'}</td><td>${name}</td><td>${esc(e.recordedVerdict ?? '—')}</td><td>${esc(e.summary)}</td><td>${changed}</td></tr>`;
}

/**
 * gate.html: every fixture with PASS/FAIL, the verdict it recorded, what the re-run found, what changed
 * since it was sealed, and a link to its report.html. Static HTML (no script), no request leaves it.
 */
export function gateHtml(run: GateRun): string {
  const failed = run.entries.filter((e) => !e.ok).length;
  const shard = run.shard.count > 1 ? ` (shard ${run.shard.index}/${run.shard.count} of ${run.total} fixtures)` : '';
  return staticPage('parity gate', STYLE, [
    `<h1>parity gate: ${run.entries.length - failed} passed, ${failed} failed${esc(shard)}</h1>`,
    '<table>',
    '<thead><tr><th>Result</th><th>Fixture (its report.html)</th><th>Recorded verdict</th><th>Re-run</th><th>Changed since sealed</th></tr></thead>',
    '<tbody>',
    ...run.entries.map(row),
    '</tbody>',
    '</table>',
  ]);
}
