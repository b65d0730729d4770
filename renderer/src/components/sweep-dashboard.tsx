import { useEffect, useRef } from 'react';
import './sweep-dashboard.css';
import { VERDICT_COLOR } from '../../../electron/common/draw/sweep-charts.js';
import type { SweepSummary } from '../../../electron/common/sweep/sweep-summary.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { SweepCharts } from './sweep-charts.js';
import { SweepFilters } from './sweep-filters.js';
import { SweepTable } from './sweep-table.js';
import { useStoreApi, useStudio } from './store-context.js';

const VERDICTS = ['identical', 'within-tolerance', 'diverged', 'degenerate-audio', 'error'] as const;
const COUNT_LABEL = { identical: 'identical', 'within-tolerance': 'within tolerance', diverged: 'diverged', 'degenerate-audio': 'degenerate audio', error: 'errors', missing: 'missing' } as const;

/** One sweep's counts by verdict; a count is a button that filters the table to its verdict. */
function Counts({ summary, testId }: { summary: SweepSummary; testId: string }) {
  const store = useStoreApi();
  const filter = useStudio(sweepSelectors.filter);
  return (
    <ul className="sweep-counts" data-testid={testId} aria-label="Cases by verdict">
      {VERDICTS.map((v) => (
        <li key={v}>
          <button type="button" className="sweep-count" aria-pressed={filter.verdict === v} onClick={() => store.getState().setSweepFilter({ verdict: filter.verdict === v ? 'all' : v })}>
            <span className="sweep-swatch" style={{ background: VERDICT_COLOR[v] }} />
            <strong data-testid={`sweep-count-${v}`}>{summary.counts[v] ?? 0}</strong> {COUNT_LABEL[v]}
          </button>
        </li>
      ))}
      <li className="muted">
        <strong>{summary.counts.missing}</strong> missing
      </li>
    </ul>
  );
}

/**
 * The sweep dashboard in the main view: counts by verdict, the first-divergent-step histogram, the
 * correlation × ΔLU scatter and the stage breakdown (sweep-charts.tsx, drawn by the code that draws
 * sweep.html), filters and the case table. A second sweep opened beside it (before a fix) adds its
 * counts and puts the cases whose verdict changed first. A case opens its A/B view; "Back to sweep"
 * returns here with the filters kept.
 */
export function SweepDashboard() {
  const store = useStoreApi();
  const summary = useStudio(sweepSelectors.summary);
  const name = useStudio(sweepSelectors.name);
  const before = useStudio(sweepSelectors.before);
  const changed = useStudio(sweepSelectors.changedCount);
  const title = useRef<HTMLHeadingElement>(null);
  // Shown (opened, or back from a case): its title takes focus, so keyboard users start here.
  useEffect(() => title.current?.focus({ preventScroll: false }), [summary]);
  if (!summary) return null;
  return (
    <section className="sweep-dashboard" aria-labelledby="sweep-title" data-testid="sweep-summary">
      <header className="sweep-head">
        <h2 id="sweep-title" ref={title} tabIndex={-1}>
          Sweep <span className="muted">{name}</span>: {summary.a} vs {summary.b}
        </h2>
        <span className="muted small-text">
          {summary.cases.length} of {summary.totalCases} cases{summary.bundle ? ` · bundle ${summary.bundle}` : ''}
        </span>
        <button type="button" className="small" onClick={() => store.getState().closeSweep()}>
          Close sweep
        </button>
      </header>
      {before ? (
        <div className="sweep-beside" data-testid="sweep-beside">
          <div>
            <h3>After: {name}</h3>
            <Counts summary={summary} testId="sweep-counts" />
          </div>
          <div>
            <h3>
              Before: {before.name}{' '}
              <button type="button" className="small ghost" onClick={() => store.getState().closeSweepBefore()}>
                Close
              </button>
            </h3>
            <Counts summary={before.summary} testId="sweep-counts-before" />
          </div>
          <p data-testid="sweep-changed">
            <strong>{changed}</strong> case{changed === 1 ? '' : 's'} changed verdict{changed > 0 ? ', listed first in the table' : ''}.
          </p>
        </div>
      ) : (
        <Counts summary={summary} testId="sweep-counts" />
      )}
      <SweepCharts />
      <SweepFilters />
      <SweepTable />
    </section>
  );
}

/** At the top of the A/B view of a case opened from a sweep: back to the dashboard, its filters as they were. */
export function BackToSweep() {
  const store = useStoreApi();
  const name = useStudio(sweepSelectors.name);
  if (!name) return null;
  return (
    <p className="back-to-sweep">
      <button type="button" className="small" onClick={() => store.getState().showSweep(true)}>
        ← Back to sweep
      </button>{' '}
      <span className="muted small-text">{name}</span>
    </p>
  );
}
