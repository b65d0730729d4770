import type { KeyboardEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { historyLabel } from '../lib/history-label.js';
import { indexAfterRemove, listKeyAction } from '../lib/roving-keys.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { historySelectors } from '../store/history/history-slice.js';
import { useStoreApi, useStudio } from './store-context.js';

/**
 * Past comparisons (kept by the host across restarts): open, delete. The list is one tab stop (roving
 * tabindex): only one row's button is in the tab order, Up/Down/Home/End move between rows, Enter opens,
 * Delete removes; the ✕ buttons are for the mouse, so a row does not cost two Tab presses.
 */
export function HistoryPanel() {
  const store = useStoreApi();
  const entries = useStudio(historySelectors.entries);
  const current = useStudio(comparisonSelectors.historyId);
  /** The row that holds the tab stop (the last one the keys reached), by id so it survives list reloads. */
  const [active, setActive] = useState<string>();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    void store.getState().loadHistory();
  }, [store]);
  const byId = (id: string) => entries.findIndex((e) => e.id === id);
  // The tab stop: the row the keys reached, else the entry on screen, else the first.
  const stop = [active, current].map((id) => (id === undefined ? -1 : byId(id))).find((i) => i >= 0) ?? 0;
  const focusRow = (index: number) => {
    setActive(entries[index]?.id);
    list.current?.querySelectorAll<HTMLButtonElement>('button.link')[index]?.focus();
  };
  const remove = async (index: number) => {
    const next = indexAfterRemove(entries.length, index);
    const nextId = next === undefined ? undefined : entries[next >= index ? next + 1 : next]?.id;
    await store.getState().deleteHistory(entries[index].id);
    setActive(nextId);
    // After the re-render without the removed row; none left: the focus goes to the section's heading.
    requestAnimationFrame(() => {
      const rows = [...(list.current?.querySelectorAll<HTMLLIElement>('li[data-history-id]') ?? [])];
      const row = rows.find((r) => r.dataset.historyId === nextId);
      if (row) row.querySelector<HTMLButtonElement>('button.link')?.focus();
      else document.getElementById('history-title')?.focus();
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const action = listKeyAction(entries.length, index, e.key);
    if (!action) return;
    e.preventDefault();
    if (action.kind === 'move') focusRow(action.index);
    else if (action.kind === 'open') void store.getState().openHistory(entries[index].id);
    else void remove(index);
  };
  return (
    <section className="panel history" aria-labelledby="history-title">
      <h2 id="history-title" tabIndex={-1}>
        History
      </h2>
      {entries.length === 0 ? (
        <p className="muted">No comparisons yet.</p>
      ) : (
        <>
          <p id="history-keys" className="muted small-text">
            ↑ ↓ to move, Enter to open, Delete to remove.
          </p>
          <ul ref={list} data-testid="history-list">
            {entries.map((e, i) => (
              <li key={e.id} className={e.id === current ? 'current' : ''} data-history-id={e.id}>
                <button
                  type="button"
                  className="link"
                  tabIndex={i === stop ? 0 : -1}
                  aria-current={e.id === current ? 'true' : undefined}
                  aria-describedby="history-keys"
                  aria-keyshortcuts="Delete"
                  onKeyDown={(ev) => onKeyDown(ev, i)}
                  onFocus={() => setActive(e.id)}
                  onClick={() => void store.getState().openHistory(e.id)}
                  title={`${e.title}\n${e.text ?? ''}\n${e.createdAt}`}
                >
                  {historyLabel(e)}
                </button>
                <span className={`dot verdict-${e.verdict ?? 'none'}`} title={e.verdict ?? 'no verdict'} />
                <button type="button" className="small ghost" tabIndex={-1} aria-label={`Delete ${e.title} (${e.id})`} onClick={() => void remove(i)}>
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
