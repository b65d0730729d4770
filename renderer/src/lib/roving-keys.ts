/**
 * Keys of the one-tab-stop widgets (roving tabindex): only the current item is in the tab order and
 * the arrows move within the widget.
 */

/**
 * The radio an arrow key checks in a radio group (WAI-ARIA APG radio group): Right/Down the next,
 * Left/Up the previous, wrapping at both ends; undefined for any other key. When `current` is none of
 * the radios (the transport's take is 'X' during ABX), the focus is on the first one, the group's tab
 * stop (radioTabStop), so the moves count from there.
 */
export function radioAfterKey<T>(items: readonly T[], current: T, key: string): T | undefined {
  if (items.length === 0) return undefined;
  const i = Math.max(0, items.indexOf(current));
  if (key === 'ArrowRight' || key === 'ArrowDown') return items[(i + 1) % items.length];
  if (key === 'ArrowLeft' || key === 'ArrowUp') return items[(i - 1 + items.length) % items.length];
  return undefined;
}

/** The radio that is the group's one tab stop: the checked one, else the first (so Tab still reaches the group). */
export function radioTabStop<T>(items: readonly T[], current: T): T | undefined {
  return items.includes(current) ? current : items[0];
}

export type ListKeyAction = { kind: 'move'; index: number } | { kind: 'open' } | { kind: 'remove' };

/**
 * What a key does in a vertical list of `count` rows with the focus on row `index`: Up/Down move one row
 * (stopping at the ends, as a listbox does), Home/End go to the ends, Enter opens the row, Delete asks to
 * remove it (confirmKeyAction); undefined for any other key (Tab leaves the list). A held Delete's
 * auto-repeat (`repeat`) asks nothing: removing takes a fresh press.
 */
export function listKeyAction(count: number, index: number, key: string, repeat = false): ListKeyAction | undefined {
  if (count === 0) return undefined;
  const at = Math.max(0, Math.min(count - 1, index));
  if (key === 'ArrowDown') return { kind: 'move', index: Math.min(count - 1, at + 1) };
  if (key === 'ArrowUp') return { kind: 'move', index: Math.max(0, at - 1) };
  if (key === 'Home') return { kind: 'move', index: 0 };
  if (key === 'End') return { kind: 'move', index: count - 1 };
  if (key === 'Enter') return { kind: 'open' };
  if (key === 'Delete') return repeat ? undefined : { kind: 'remove' };
  return undefined;
}

/**
 * Where a move from row `from` to row `to` (listKeyAction) lands when row `skip` cannot take the focus
 * (it is asking "Delete …?" and has no row button): one row further the same way, else back the other
 * way (Home onto an asking first row gives the second), else `from`.
 */
export function rowAfterMove(count: number, from: number, to: number, skip: number | undefined): number {
  if (to !== skip) return to;
  const way = to >= from ? 1 : -1;
  for (const next of [to + way, to - way]) if (next >= 0 && next < count && next !== skip) return next;
  return from;
}

export type ConfirmKeyAction = 'confirm' | 'keep' | 'other-button' | 'ignore';

/**
 * What a key does in a row that asks "Delete …? [Delete] [Keep]", with the focus on `on`: Enter presses
 * the focused button, Delete pressed again confirms (from either button), Esc keeps the entry, Left/Right
 * go to the other button; undefined for any other key (Tab moves on; Space is the button's own key, its
 * click on key-up, which the page's shortcuts leave alone). A key that would confirm but is an
 * auto-repeat (`repeat`: the Delete held since it asked, now arriving on Keep) is 'ignore': the caller
 * swallows it, so not even Enter's native click on the Delete button removes anything.
 */
export function confirmKeyAction(on: 'delete' | 'keep', key: string, repeat = false): ConfirmKeyAction | undefined {
  const confirms = key === 'Delete' || (key === 'Enter' && on === 'delete');
  if (confirms) return repeat ? 'ignore' : 'confirm';
  if (key === 'Escape') return 'keep';
  if (key === 'Enter') return 'keep';
  if (key === 'ArrowLeft' || key === 'ArrowRight') return 'other-button';
  return undefined;
}

/** The row to focus after row `removed` of `count` rows went: the one that took its place, else the one above; undefined when none is left. */
export function indexAfterRemove(count: number, removed: number): number | undefined {
  const left = count - 1;
  if (left <= 0) return undefined;
  return Math.min(removed, left - 1);
}

/**
 * The step a key moves to on the step-trace chart, a slider over steps first..last (WAI-ARIA APG
 * slider): Left/Right one step, PageDown/PageUp ten, Home/End the ends, clamped. With no step picked yet
 * every move starts at the first step (where the playhead starts); End goes to the last.
 */
export function stepAfterKey(first: number, last: number, current: number | undefined, key: string): number | undefined {
  if (last < first) return undefined;
  const clamp = (n: number) => Math.max(first, Math.min(last, n));
  const moves: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
  if (key === 'Home') return first;
  if (key === 'End') return last;
  if (!(key in moves)) return undefined;
  return current === undefined ? first : clamp(current + moves[key]);
}
