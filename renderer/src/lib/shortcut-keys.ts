/** The studio's keys, in one table so the buttons' tooltips and the ? sheet say the same thing. */
export const SHORTCUTS = [
  { key: ' ', label: 'Space', action: 'Play / pause' },
  { key: 'a', label: 'A', action: 'Listen to A (same position)' },
  { key: 'b', label: 'B', action: 'Listen to B (same position)' },
  { key: 'd', label: 'D', action: 'Listen to the difference A − B' },
  { key: 'l', label: 'L', action: 'Loop the selected region (or what is in view) on/off' },
  { key: 'mod+enter', label: 'Ctrl/⌘ + Enter', action: 'Synthesize A/B (also while typing in the form)' },
  { key: 'escape', label: 'Esc', action: 'Cancel what is running: the synthesis and the drill-down (or close this sheet)' },
  { key: '?', label: '?', action: 'Show this sheet' },
] as const;

export const shortcutLabel = (key: string) => SHORTCUTS.find((s) => s.key === key)?.label ?? key;

export type ShortcutAction = 'toggle-sheet' | 'close-sheet' | 'play' | 'take-A' | 'take-B' | 'take-D' | 'loop' | 'synthesize' | 'cancel';

/** What a key press asks for; `typing` is true when the focus is in a text field. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  typing: boolean;
}

const SINGLE_KEYS: Record<string, ShortcutAction> = { ' ': 'play', a: 'take-A', b: 'take-B', d: 'take-D', l: 'loop' };

/**
 * The action for a key press, or undefined to leave it to the page. Ctrl/⌘+Enter and Esc work in
 * fields too (neither types anything); single letters only outside them, so a prompt can hold "a".
 */
export function shortcutAction(e: KeyPress, state: { sheetOpen: boolean; running: boolean }): ShortcutAction | undefined {
  const key = e.key.toLowerCase();
  if (key === 'enter' && (e.ctrlKey || e.metaKey) && !e.altKey) return 'synthesize';
  if (key === 'escape') return state.sheetOpen ? 'close-sheet' : state.running ? 'cancel' : undefined;
  if (e.ctrlKey || e.metaKey || e.altKey || e.typing) return undefined;
  if (e.key === '?') return 'toggle-sheet';
  return SINGLE_KEYS[key];
}
