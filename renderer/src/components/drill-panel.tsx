import { drillSelectors } from '../store/drill/drill-slice.js';
import { useStoreApi, useStudio } from './store-context.js';

/** "Drill down" on a diverged synthesized comparison: the first input and node that differ inside the first divergent step. */
export function DrillPanel() {
  const store = useStoreApi();
  const can = useStudio(drillSelectors.canDrill);
  const status = useStudio(drillSelectors.status);
  const error = useStudio(drillSelectors.error);
  const lines = useStudio(drillSelectors.lines);
  if (!can) return null;
  return (
    <section className="drill" aria-label="Drill down" data-testid="drill">
      <button type="button" disabled={status === 'running'} onClick={() => void store.getState().drillCurrent()} title="Re-run the first divergent step with every node output promoted, as parity compare --drill does, and name the first input and node that differ or hold a NaN">
        {status === 'running' ? 'Drilling down…' : status === 'done' ? 'Drill down again' : 'Drill down'}
      </button>
      {status === 'failed' && (
        <p role="alert" className="error">
          Drill-down failed: {error}
        </p>
      )}
      {lines && (
        <pre className="drill-lines" data-testid="drill-lines">
          {lines.join('\n')}
        </pre>
      )}
    </section>
  );
}
