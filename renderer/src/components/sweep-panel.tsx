import { useEffect, useRef } from 'react';
import './sweep-panel.css';
import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import type { SweepSortKey } from '../store/sweep/sweep-slice.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { SweepScatter } from './sweep-scatter.js';
import { useStoreApi, useStudio } from './store-context.js';

const COLUMNS: { key: SweepSortKey; label: string }[] = [
  { key: 'index', label: 'Case' },
  { key: 'verdict', label: 'Verdict' },
  { key: 'firstStep', label: 'Step' },
  { key: 'correlation', label: 'Corr.' },
  { key: 'loudnessDeltaLU', label: 'ΔLU' },
  { key: 'mcdDb', label: 'MCD' },
];

function fixed(v: number | null, digits: number): string {
  if (v === null) return '—';
  return Number.isFinite(v) ? v.toFixed(digits) : String(v);
}

/**
 * A merged sweep (sweep.json from `parity sweep merge`): the counts, the histogram of the first
 * divergent step, correlation against ΔLU, and the cases in a table sorted by any column; a case's button
 * (or its dot) opens its comparison: imported from its fixture when the merged folder was opened and it
 * is one of the worst, otherwise synthesized again (profile sweeps).
 */
export function SweepPanel() {
  const store = useStoreApi();
  const summary = useStudio(sweepSelectors.summary);
  const name = useStudio(sweepSelectors.name);
  const sort = useStudio(sweepSelectors.sort);
  const cases = useStudio(sweepSelectors.cases);
  const input = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  // A folder picker (Chromium, Firefox, Safari); React has no prop for the attribute.
  useEffect(() => folder.current?.setAttribute('webkitdirectory', ''), []);
  const worst = summary ? sweepSelectors.worstKeys(summary) : undefined;
  const top = summary ? Math.max(1, ...summary.firstStep.histogram.map((h) => h.count)) : 1;
  const row = (c: SummaryCase) => {
    const key = sweepSelectors.key(c);
    return (
      <tr key={key} className={worst?.has(key) ? 'sweep-worst' : undefined} data-testid="sweep-case">
        <td>
          <button type="button" className="link" title={c.text ?? c.id} onClick={() => void store.getState().openSweepCase(c)} aria-label={`Open case ${key}`}>
            {key}
          </button>
        </td>
        <td>{c.verdict}</td>
        <td>{c.firstStep ?? '—'}</td>
        <td>{fixed(c.correlation, 4)}</td>
        <td>{fixed(c.loudnessDeltaLU, 2)}</td>
        <td>{fixed(c.mcdDb, 2)}</td>
      </tr>
    );
  };
  return (
    <section className="panel" aria-labelledby="sweep-title">
      <h2 id="sweep-title">Sweep</h2>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        aria-label="Open sweep.json"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          if (file) store.getState().openSweep(file.name, new Uint8Array(await file.arrayBuffer()));
          if (input.current) input.current.value = '';
        }}
      />
      <input
        ref={folder}
        type="file"
        aria-label="Open sweep folder"
        onChange={async (e) => {
          const files = [...(e.target.files ?? [])].map((f) => ({ path: f.webkitRelativePath || f.name, read: async () => new Uint8Array(await f.arrayBuffer()) }));
          if (files.length > 0) await store.getState().openSweepFolder(files);
          if (folder.current) folder.current.value = '';
        }}
      />
      {!summary && (
        <p className="muted small-text">
          Open the sweep.json written by parity sweep merge, or its whole folder so the worst cases open from their fixtures (docs/sweeps.md).
        </p>
      )}
      {summary && (
        <div data-testid="sweep-summary">
          <p className="small-text">
            <strong>{name}</strong>: {summary.a} vs {summary.b} · {summary.cases.length} of {summary.totalCases} cases ·{' '}
            <span data-testid="sweep-counts">
              {summary.counts.identical} identical, {summary.counts['within-tolerance']} within tolerance, {summary.counts.diverged} diverged, {summary.counts.error} errors, {summary.counts.missing} missing
            </span>{' '}
            <button type="button" className="link" onClick={() => store.getState().closeSweep()}>
              Close
            </button>
          </p>
          {summary.firstStep.histogram.length > 0 && (
            <ul className="sweep-histogram" aria-label="First divergent step">
              {summary.firstStep.histogram.map((h) => (
                <li key={h.step} data-testid="sweep-bar">
                  <span className="sweep-bar-label">step {h.step}</span>
                  <span className="sweep-bar" style={{ width: `${(70 * h.count) / top}%` }} />
                  <span>{h.count}</span>
                </li>
              ))}
            </ul>
          )}
          <SweepScatter cases={summary.cases} onOpen={(c) => void store.getState().openSweepCase(c)} />
          <div className="sweep-table-wrap">
            <table className="sweep-table">
              <thead>
                <tr>
                  {COLUMNS.map((col) => (
                    <th key={col.key} aria-sort={sort.key === col.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                      <button type="button" className="link" onClick={() => store.getState().sortSweep(col.key)}>
                        {col.label}
                        {sort.key === col.key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>{cases.map(row)}</tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
