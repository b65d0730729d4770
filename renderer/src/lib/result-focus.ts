/** What `takesResultFocus` needs of the focused element (the DOM's Element, testable without one). */
export interface FocusedLike {
  tagName: string;
  closest(selector: string): unknown;
}

/**
 * Whether a new result (comparison, sweep case) may take the keyboard focus to its verdict: when the
 * focus is nowhere (a clicked sweep case's button is gone), in the results, or on a button of the form
 * (Synthesize). Not while the user types in a field or walks the history list: the verdict is still
 * scrolled into view, and announced.
 */
export function takesResultFocus(active: FocusedLike | null, body: unknown): boolean {
  if (!active || active === body) return true;
  if (active.closest('#results')) return true;
  return active.tagName === 'BUTTON' && Boolean(active.closest('.compare-form'));
}
