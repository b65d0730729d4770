/**
 * Keys of the one-tab-stop widgets (roving tabindex): only the current item is in the tab order and
 * the arrows move within the widget.
 */

/**
 * The radio an arrow key checks in a radio group (WAI-ARIA APG radio group): Right/Down the next,
 * Left/Up the previous, wrapping at both ends; undefined for any other key.
 */
export function radioAfterKey<T>(items: readonly T[], current: T, key: string): T | undefined {
  const i = items.indexOf(current);
  if (items.length === 0 || i < 0) return undefined;
  if (key === 'ArrowRight' || key === 'ArrowDown') return items[(i + 1) % items.length];
  if (key === 'ArrowLeft' || key === 'ArrowUp') return items[(i - 1 + items.length) % items.length];
  return undefined;
}

export type ListKeyAction = { kind: 'move'; index: number } | { kind: 'open' } | { kind: 'remove' };

/**
 * What a key does in a vertical list of `count` rows with the focus on row `index`: Up/Down move one row
 * (stopping at the ends, as a listbox does), Home/End go to the ends, Enter opens the row, Delete asks to
 * remove it (confirmKeyAction); undefined for any other key (Tab leaves the list).
 */
export function listKeyAction(count: number, index: number, key: string): ListKeyAction | undefined {
  if (count === 0) return undefined;
  const at = Math.max(0, Math.min(count - 1, index));
  if (key === 'ArrowDown') return { kind: 'move', index: Math.min(count - 1, at + 1) };
  if (key === 'ArrowUp') return { kind: 'move', index: Math.max(0, at - 1) };
  if (key === 'Home') return { kind: 'move', index: 0 };
  if (key === 'End') return { kind: 'move', index: count - 1 };
  if (key === 'Enter') return { kind: 'open' };
  if (key === 'Delete') return { kind: 'remove' };
  return undefined;
}

export type ConfirmKeyAction = 'confirm' | 'keep' | 'other-button';

/**
 * What a key does in a row that asks "Delete …? [Delete] [Keep]", with the focus on `on`: Enter presses
 * the focused button, Delete pressed again confirms (from either button), Esc keeps the entry, Left/Right
 * go to the other button; undefined for any other key (Tab moves on as usual, Space clicks natively).
 */
export function confirmKeyAction(on: 'delete' | 'keep', key: string): ConfirmKeyAction | undefined {
  if (key === 'Delete') return 'confirm';
  if (key === 'Escape') return 'keep';
  if (key === 'Enter') return on === 'delete' ? 'confirm' : 'keep';
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
