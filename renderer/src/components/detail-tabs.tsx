import type { KeyboardEvent } from 'react';
import { tabAfterKey } from '../lib/tab-keys.js';
import type { DetailTab } from '../store/view/view-slice.js';
import { viewSelectors } from '../store/view/view-selectors.js';
import { AbxPanel } from './abx-panel.js';
import { CodesGrid } from './codes-grid.js';
import { DrillPanel } from './drill-panel.js';
import { MetricsPanel } from './metrics-panel.js';
import { NumericsPanel } from './numerics-panel.js';
import { StepTrace } from './step-trace.js';
import { useStoreApi, useStudio } from './store-context.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';

const TABS: { id: DetailTab; label: string }[] = [
  { id: 'metrics', label: 'Metrics' },
  { id: 'steps', label: 'Step trace' },
  { id: 'codes', label: 'Codes' },
  { id: 'numerics', label: 'Numerics' },
  { id: 'abx', label: 'ABX blind test' },
];

export function DetailTabs() {
  const store = useStoreApi();
  const tab = useStudio(viewSelectors.tab);
  const hasComparison = useStudio(comparisonSelectors.hasComparison);
  if (!hasComparison) return null;
  // One tab stop for the whole list; arrows move between tabs and select them (automatic activation).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = tabAfterKey(TABS.map((t) => t.id), tab, e.key);
    if (next === undefined) return;
    e.preventDefault();
    store.getState().setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <section className="details">
      <div role="tablist" aria-label="Details" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button key={t.id} id={`tab-${t.id}`} type="button" role="tab" aria-selected={tab === t.id} tabIndex={tab === t.id ? 0 : -1} aria-controls="detail-panel" onClick={() => store.getState().setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      {/* APG tabs: every panel opens with text, not a control, so the panel itself is the next tab stop
          after the tablist (otherwise Tab from the tabs would skip what they show). */}
      <div id="detail-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'metrics' && <MetricsPanel />}
        {tab === 'steps' && (
          <>
            <StepTrace />
            <DrillPanel />
          </>
        )}
        {tab === 'codes' && <CodesGrid />}
        {tab === 'numerics' && <NumericsPanel />}
        {tab === 'abx' && <AbxPanel />}
      </div>
    </section>
  );
}
