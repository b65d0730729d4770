import { DivergenceStage } from '../../../electron/common/forensics/divergence.js';
import { NO_FILTER, type SweepFilter } from '../store/sweep/sweep-slice.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const VERDICTS: { value: SweepFilter['verdict']; label: string }[] = [
  { value: 'all', label: 'all verdicts' },
  { value: 'diverged', label: 'diverged' },
  { value: 'within-tolerance', label: 'within tolerance' },
  { value: 'identical', label: 'identical' },
  { value: 'degenerate-audio', label: 'degenerate audio' },
  { value: 'error', label: 'error' },
];

/**
 * The case table's filters: verdict, stage, near-tie or real flip, text search, changed verdicts only (two
 * sweeps), and the first-divergent-step bin chosen in the histogram.
 */
export function SweepFilters() {
  const store = useStoreApi();
  const filter = useStudio(sweepSelectors.filter);
  const zoom = useStudio(sweepSelectors.zoom);
  const shown = useStudio(sweepSelectors.shownCount);
  const total = useStudio(sweepSelectors.caseCount);
  const before = useStudio(sweepSelectors.before);
  const set = (f: Partial<SweepFilter>) => store.getState().setSweepFilter(f);
  const narrowed = JSON.stringify(filter) !== JSON.stringify(NO_FILTER) || zoom !== undefined;
  return (
    <div className="sweep-filters" role="search" aria-label="Filter the cases">
      <label className="inline">
        Verdict
        <select value={filter.verdict} onChange={(e) => set({ verdict: e.target.value as SweepFilter['verdict'] })}>
          {VERDICTS.map((v) => (
            <option key={v.value} value={v.value}>
              {v.label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        Stage
        <select value={filter.stage} onChange={(e) => set({ stage: e.target.value as SweepFilter['stage'] })}>
          <option value="all">all stages</option>
          {DivergenceStage.options.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        Flip
        <select value={filter.flip} onChange={(e) => set({ flip: e.target.value as SweepFilter['flip'] })}>
          <option value="all">near-tie or real</option>
          <option value="near-tie">near-tie only</option>
          <option value="real">real only</option>
        </select>
      </label>
      <label className="inline">
        Search
        <input type="search" value={filter.text} placeholder="case or prompt" onChange={(e) => set({ text: e.target.value })} />
      </label>
      {before && (
        <label className="inline">
          <input type="checkbox" checked={filter.changedOnly} onChange={(e) => set({ changedOnly: e.target.checked })} />
          Changed verdicts only
        </label>
      )}
      {filter.steps && (
        <span className="sweep-chip" data-testid="sweep-step-filter">
          First divergent step {filter.steps.from === filter.steps.to ? filter.steps.from : `${filter.steps.from}–${filter.steps.to}`}
          <button type="button" className="small ghost" aria-label="Any first divergent step" title="Any first divergent step" onClick={() => set({ steps: null })}>
            ×
          </button>
        </span>
      )}
      <span className="muted" data-testid="sweep-shown" aria-live="polite">
        {shown} of {total} cases{zoom ? ' (scatter zoomed)' : ''}
      </span>
      {narrowed && (
        <button
          type="button"
          className="small"
          onClick={() => {
            set(NO_FILTER);
            store.getState().zoomSweep(undefined);
          }}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
