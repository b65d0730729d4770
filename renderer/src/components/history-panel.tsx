import type { KeyboardEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { historyLabels } from '../lib/history-label.js';
import { confirmKeyAction, indexAfterRemove, listKeyAction, rowAfterMove } from '../lib/roving-keys.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { historySelectors } from '../store/history/history-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Runs after React has drawn the next state (the row's question, or the list without the removed row). */
const afterRender = (work: () => void) => requestAnimationFrame(work);

/**
 * Past comparisons (kept by the host across restarts): open, delete. The list is one tab stop (roving
 * tabindex): only one row's button is in the tab order, Up/Down/Home/End move between rows, Enter opens,
 * Delete asks; the ✕ buttons are for the mouse, so a row does not cost two Tab presses. Removal cannot be
 * undone (the host deletes the folder), so the row first asks "Delete …? [Delete] [Keep]", focus on Keep.
 */
export function HistoryPanel() {
  const store = useStoreApi();
  const entries = useStudio(historySelectors.entries);
  const current = useStudio(comparisonSelectors.historyId);
  const pending = useStudio(historySelectors.pendingDelete);
  const status = useStudio(historySelectors.status);
  /** The row that holds the tab stop (the last one the keys reached), by id so it survives list reloads. */
  const [active, setActive] = useState<string>();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    void store.getState().loadHistory();
  }, [store]);
  const labels = useMemo(() => historyLabels(entries), [entries]);
  const byId = (id: string) => entries.findIndex((e) => e.id === id);
  // The tab stop: the row asking, else the row the keys reached, else the entry on screen, else the first.
  const stop = [pending?.id, active, current].map((id) => (id === undefined ? -1 : byId(id))).find((i) => i >= 0) ?? 0;
  const rowOf = (id: string | undefined) => [...(list.current?.querySelectorAll<HTMLLIElement>('li[data-history-id]') ?? [])].find((r) => r.dataset.historyId === id);
  const focusIn = (id: string | undefined, selector: string) => afterRender(() => rowOf(id)?.querySelector<HTMLButtonElement>(selector)?.focus());
  // By id, not by position among the row buttons: the row asking "Delete …?" has none, which would shift them.
  const focusRow = (index: number) => {
    const id = entries[index]?.id;
    setActive(id);
    rowOf(id)?.querySelector<HTMLButtonElement>('button.link')?.focus();
  };
  const ask = (index: number) => {
    const id = entries[index].id;
    setActive(id);
    store.getState().askDelete(id);
    focusIn(id, 'button.keep');
  };
  const keep = () => {
    const id = pending?.id;
    store.getState().keepEntry();
    focusIn(id, 'button.link');
  };
  const confirm = async () => {
    const index = pending ? byId(pending.id) : -1;
    if (index < 0) return;
    const next = indexAfterRemove(entries.length, index);
    const nextId = next === undefined ? undefined : entries[next >= index ? next + 1 : next]?.id;
    const gone = await store.getState().confirmDelete();
    if (!gone) return focusIn(entries[index].id, 'button.link');
    setActive(nextId);
    // None left: the focus goes to the section's heading.
    afterRender(() => {
      const row = rowOf(nextId);
      if (row) row.querySelector<HTMLButtonElement>('button.link')?.focus();
      else document.getElementById('history-title')?.focus();
    });
  };
  const onRowKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const action = listKeyAction(entries.length, index, e.key, e.repeat);
    if (!action) return;
    e.preventDefault();
    if (action.kind === 'move') focusRow(rowAfterMove(entries.length, index, action.index, pending ? byId(pending.id) : undefined));
    else if (action.kind === 'open') void store.getState().openHistory(entries[index].id);
    else ask(index);
  };
  const onConfirmKey = (e: KeyboardEvent<HTMLButtonElement>, on: 'delete' | 'keep') => {
    const action = confirmKeyAction(on, e.key, e.repeat);
    if (!action) return;
    e.preventDefault();
    // Esc here answers the question; the page's Esc (cancel the running synthesis) must not also fire.
    e.stopPropagation();
    if (action === 'ignore') return;
    if (action === 'keep') keep();
    else if (action === 'confirm') void confirm();
    else e.currentTarget.parentElement?.querySelector<HTMLButtonElement>(on === 'delete' ? 'button.keep' : 'button.confirm-delete')?.focus();
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
            ↑ ↓ to move, Enter to open, Delete to remove (asks first).
          </p>
          <ul ref={list} data-testid="history-list">
            {entries.map((e, i) =>
              pending?.id === e.id ? (
                <li key={e.id} className={`asking ${e.id === current ? 'current' : ''}`} data-history-id={e.id} data-testid="history-confirm">
                  <span id={`delete-q-${e.id}`} className="delete-q" title={`${e.title}\n${e.createdAt}`}>
                    Delete “{e.title}”? <span className="muted small-text">Its folder is removed; this cannot be undone.</span>
                  </span>
                  <span role="group" aria-labelledby={`delete-q-${e.id}`} className="delete-answers">
                    <button type="button" className="small danger confirm-delete" onKeyDown={(ev) => onConfirmKey(ev, 'delete')} onClick={() => void confirm()}>
                      Delete
                    </button>
                    <button type="button" className="small keep" aria-keyshortcuts="Escape" onKeyDown={(ev) => onConfirmKey(ev, 'keep')} onClick={keep}>
                      Keep
                    </button>
                  </span>
                </li>
              ) : (
                <li key={e.id} className={e.id === current ? 'current' : ''} data-history-id={e.id}>
                  <button
                    type="button"
                    className="link"
                    tabIndex={i === stop ? 0 : -1}
                    aria-current={e.id === current ? 'true' : undefined}
                    aria-describedby="history-keys"
                    aria-keyshortcuts="Delete"
                    onKeyDown={(ev) => onRowKey(ev, i)}
                    onFocus={() => setActive(e.id)}
                    onClick={() => void store.getState().openHistory(e.id)}
                    title={`${e.title}\n${e.text ?? ''}\n${e.createdAt}`}
                  >
                    {labels.get(e.id)}
                  </button>
                  <span className={`dot verdict-${e.verdict ?? 'none'}`} title={e.verdict ?? 'no verdict'} />
                  <button type="button" className="small ghost" tabIndex={-1} aria-label={`Delete ${e.title} (${e.id})`} title="Delete (asks first)" onClick={() => ask(i)}>
                    ✕
                  </button>
                </li>
              ),
            )}
          </ul>
        </>
      )}
      {/* Always in the page, so a screen reader hears each change; the question itself is visible in its row. */}
      <p role="status" aria-live="polite" data-testid="history-status" className={status?.shown ? 'muted small-text' : 'visually-hidden'}>
        {status?.text ?? ''}
      </p>
    </section>
  );
}
