import { useState } from 'react';
import { sweepNumber } from '../../../electron/common/sweep/sweep-number.js';
import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import type { SweepSortKey } from '../store/sweep/sweep-slice.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const COLUMNS: { key: SweepSortKey | null; label: string; title?: string }[] = [
  { key: 'index', label: 'Case' },
  { key: 'verdict', label: 'Verdict' },
  { key: 'firstStep', label: 'Step', title: 'First divergent step' },
  { key: null, label: 'Stage' },
  { key: null, label: 'Flip', title: 'First code flip: a near-tie (numeric drift could swap the codes) or real' },
  { key: 'correlation', label: 'Corr.', title: 'Pearson correlation at lag 0' },
  { key: 'loudnessDeltaLU', label: 'ΔLU', title: 'Integrated loudness B − A' },
  { key: 'lsdDb', label: 'LSD', title: 'Log-spectral distance, dB' },
  { key: 'mcdDb', label: 'MCD', title: 'Mel-cepstral distortion, dB' },
];

/** Rows drawn at a time (the rest are spacers): 10,000 cases scroll and filter without 110,000 cells. */
const ROW_PX = 26;
const WINDOW_ROWS = 40;

/** The sweep's cases as filtered and sorted (sweep-selectors.ts), windowed; a case's button opens its A/B view. */
export function SweepTable() {
  const store = useStoreApi();
  const cases = useStudio(sweepSelectors.cases);
  const sort = useStudio(sweepSelectors.sort);
  const summary = useStudio(sweepSelectors.summary);
  const before = useStudio(sweepSelectors.verdictsBefore);
  const hasBefore = before !== undefined;
  const [top, setTop] = useState(0);
  if (!summary) return null;
  const worst = sweepSelectors.worstKeys(summary);
  const first = Math.max(0, Math.min(cases.length - WINDOW_ROWS, Math.floor(top / ROW_PX) - 10));
  const rows = cases.slice(first, first + WINDOW_ROWS);
  const columns = hasBefore ? [COLUMNS[0], COLUMNS[1], { key: null, label: 'Before' }, ...COLUMNS.slice(2)] : COLUMNS;
  const row = (c: SummaryCase) => {
    const key = sweepSelectors.key(c);
    const was = before?.get(key);
    return (
      <tr key={key} className={`${worst.has(key) ? 'sweep-worst' : ''} ${was !== undefined && was !== c.verdict ? 'sweep-changed' : ''}`} data-testid="sweep-case">
        <td>
          <button type="button" className="link" title={c.text ?? c.id} onClick={() => void store.getState().openSweepCase(c)} aria-label={`Open case ${key}`}>
            {key}
          </button>
        </td>
        <td className={`verdict-${c.verdict}`}>{c.verdict}</td>
        {hasBefore && <td className={was ? `verdict-${was}` : undefined}>{was ?? '—'}</td>}
        <td>{c.firstStep ?? '—'}</td>
        <td>{c.stage ?? '—'}</td>
        <td>{c.flip ?? '—'}</td>
        <td>{sweepNumber(c.correlation, 4)}</td>
        <td>{sweepNumber(c.loudnessDeltaLU, 2)}</td>
        <td>{sweepNumber(c.lsdDb, 2)}</td>
        <td>{sweepNumber(c.mcdDb, 2)}</td>
      </tr>
    );
  };
  return (
    <div className="sweep-table-wrap" onScroll={(e) => setTop(e.currentTarget.scrollTop)} data-testid="sweep-table">
      <table className="sweep-table" aria-rowcount={cases.length + 1}>
        <thead>
          <tr>
            {columns.map((col) =>
              col.key === null ? (
                <th key={col.label} title={col.title}>
                  {col.label}
                </th>
              ) : (
                <th key={col.key} title={col.title} aria-sort={sort.key === col.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                  <button type="button" className="link" onClick={() => store.getState().sortSweep(col.key!)}>
                    {col.label}
                    {sort.key === col.key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                  </button>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr className="sweep-spacer" style={{ height: first * ROW_PX }} aria-hidden="true" />}
          {rows.map(row)}
          {first + rows.length < cases.length && <tr className="sweep-spacer" style={{ height: (cases.length - first - rows.length) * ROW_PX }} aria-hidden="true" />}
        </tbody>
      </table>
      {cases.length === 0 && <p className="muted">No case matches the filters.</p>}
    </div>
  );
}
