import type { DetailTab } from '../store/view/view-slice.js';
import { viewSelectors } from '../store/view/view-slice.js';
import { AbxPanel } from './abx-panel.js';
import { CodesGrid } from './codes-grid.js';
import { DrillPanel } from './drill-panel.js';
import { MetricsPanel } from './metrics-panel.js';
import { NumericsPanel } from './numerics-panel.js';
import { StepTrace } from './step-trace.js';
import { useStoreApi, useStudio } from './store-context.js';

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
  const hasComparison = useStudio((s) => s.comparison !== undefined);
  if (!hasComparison) return null;
  return (
    <section className="details">
      <div role="tablist" aria-label="Details">
        {TABS.map((t) => (
          <button key={t.id} id={`tab-${t.id}`} type="button" role="tab" aria-selected={tab === t.id} aria-controls="detail-panel" onClick={() => store.getState().setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div id="detail-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
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
