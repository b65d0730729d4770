import { useEffect } from 'react';
import { historyLabel } from '../lib/history-label.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { historySelectors } from '../store/history/history-slice.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Past comparisons (kept by the host across restarts): open, delete. */
export function HistoryPanel() {
  const store = useStoreApi();
  const entries = useStudio(historySelectors.entries);
  const current = useStudio(comparisonSelectors.historyId);
  useEffect(() => {
    void store.getState().loadHistory();
  }, [store]);
  return (
    <section className="panel history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {entries.length === 0 ? (
        <p className="muted">No comparisons yet.</p>
      ) : (
        <ul data-testid="history-list">
          {entries.map((e) => (
            <li key={e.id} className={e.id === current ? 'current' : ''} data-history-id={e.id}>
              <button type="button" className="link" onClick={() => void store.getState().openHistory(e.id)} title={`${e.title}\n${e.text ?? ''}\n${e.createdAt}`}>
                {historyLabel(e)}
              </button>
              <span className={`dot verdict-${e.verdict ?? 'none'}`} title={e.verdict ?? 'no verdict'} />
              <button type="button" className="small ghost" aria-label={`Delete ${e.title} (${e.id})`} onClick={() => void store.getState().deleteHistory(e.id)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
