/**
 * What the focused element does with a key itself, so the page's single-key shortcuts can leave it
 * alone: 'text' takes letters and Space (a field, a select's type-ahead), 'control' is activated by
 * Space or Enter (a button, a link, a checkbox, a radio, a tab, …), 'other' does neither (the body, a
 * slider, a grid, a range input).
 */
export type KeyTarget = 'text' | 'control' | 'other';

/** The parts of an element that decide its KeyTarget (plain data, so the rule is tested without a DOM). */
export interface TargetTraits {
  tagName: string;
  /** The input's `type`, lower case ('' when not an input). */
  type: string;
  /** The `role` attribute ('' when none). */
  role: string;
  isContentEditable: boolean;
  /** An `<a>` with an href (one without is not a link). */
  hasHref: boolean;
}

// Input types with no text to type in: Space checks or presses them, except range (no Space action).
const CONTROL_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'color', 'image']);
// ARIA roles whose widgets take Space/Enter (WAI-ARIA APG); slider and grid do not, so Space plays there.
const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem']);

export function keyTarget(t: TargetTraits): KeyTarget {
  const tag = t.tagName.toUpperCase();
  if (t.isContentEditable || tag === 'TEXTAREA' || tag === 'SELECT') return 'text';
  if (tag === 'INPUT') return CONTROL_INPUTS.has(t.type) ? 'control' : t.type === 'range' ? 'other' : 'text';
  if (CONTROL_ROLES.has(t.role)) return 'control';
  if (tag === 'BUTTON' || tag === 'SUMMARY' || (tag === 'A' && t.hasHref)) return 'control';
  return 'other';
}
