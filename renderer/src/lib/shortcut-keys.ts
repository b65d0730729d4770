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

/** What a key press asks for. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focus is in a text field (keyTarget 'text'). */
  typing: boolean;
  /** The focus is on a button, link, checkbox, radio, tab, … (keyTarget 'control'): Space is its own. */
  control: boolean;
  /** A widget's handler already acted on the key (KeyboardEvent.defaultPrevented). */
  handled: boolean;
}

const SINGLE_KEYS: Record<string, ShortcutAction> = { ' ': 'play', a: 'take-A', b: 'take-B', d: 'take-D', l: 'loop' };

/**
 * The action for a key press, or undefined to leave it to the page. Ctrl/⌘+Enter and Esc work in
 * fields too (neither types anything); single letters only outside them, so a prompt can hold "a".
 * Space on a focused control presses that control (Keep, Delete, a link, a checkbox; on Play that is
 * play anyway), never play; a key a widget already handled is not acted on twice.
 */
export function shortcutAction(e: KeyPress, state: { sheetOpen: boolean; running: boolean }): ShortcutAction | undefined {
  if (e.handled) return undefined;
  const key = e.key.toLowerCase();
  if (key === ' ' && e.control) return undefined;
  if (key === 'enter' && (e.ctrlKey || e.metaKey) && !e.altKey) return 'synthesize';
  if (key === 'escape') return state.sheetOpen ? 'close-sheet' : state.running ? 'cancel' : undefined;
  if (e.ctrlKey || e.metaKey || e.altKey || e.typing) return undefined;
  if (e.key === '?') return 'toggle-sheet';
  return SINGLE_KEYS[key];
}

/**
 * Keys that act only inside one widget, where the focus is (roving tab stops, WAI-ARIA APG patterns). The
 * ? sheet lists them apart; they are never global, so shortcutAction knows none of them. `keys` are
 * KeyboardEvent.key names ("mod+" = with Ctrl or ⌘), so a test can press each on the widget's own handler.
 */
export const WIDGET_KEYS = [
  {
    widget: 'History list',
    rows: [
      { keys: ['ArrowUp', 'ArrowDown'], action: 'Previous / next entry' },
      { keys: ['Home', 'End'], action: 'First / last entry' },
      { keys: ['Enter'], action: 'Open the entry' },
      { keys: ['Delete'], action: 'Ask to delete it: Delete again (or Enter on Delete) deletes, Esc (or Enter on Keep) keeps it' },
    ],
  },
  {
    widget: 'Codes grid',
    rows: [
      { keys: ['ArrowLeft', 'ArrowRight'], action: 'Previous / next frame' },
      { keys: ['ArrowUp', 'ArrowDown'], action: 'Previous / next codebook' },
      { keys: ['PageUp', 'PageDown'], action: 'Ten frames back / on' },
      { keys: ['Home', 'End'], action: 'First / last frame of the codebook' },
      { keys: ['mod+Home', 'mod+End'], action: 'First / last cell' },
    ],
  },
  {
    widget: 'Step chart',
    rows: [
      { keys: ['ArrowLeft', 'ArrowRight'], action: 'Previous / next step (↓ ↑ too); the playhead goes to its frame' },
      { keys: ['PageDown', 'PageUp'], action: 'Ten steps back / on' },
      { keys: ['Home', 'End'], action: 'First / last step' },
    ],
  },
  {
    widget: 'A / B / Difference',
    rows: [{ keys: ['ArrowLeft', 'ArrowRight'], action: 'Previous / next take (↑ ↓ too), same position' }],
  },
  {
    widget: 'Timeline lanes',
    rows: [
      { keys: ['+', '-'], action: 'Zoom in / out (×2, about the playhead when in view)' },
      { keys: ['ArrowLeft', 'ArrowRight'], action: 'Scroll a tenth of the view back / on' },
      { keys: ['mod+ArrowLeft', 'mod+ArrowRight'], action: 'Scroll a whole view back / on' },
      { keys: ['Home', 'End'], action: 'Start / end of the take' },
      { keys: ['0'], action: 'Fit the whole take' },
    ],
  },
  {
    widget: 'Detail tabs',
    rows: [
      { keys: ['ArrowLeft', 'ArrowRight'], action: 'Previous / next tab' },
      { keys: ['Home', 'End'], action: 'First / last tab' },
    ],
  },
] as const;

const KEY_CHIPS: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', PageUp: 'PgUp', PageDown: 'PgDn', Delete: 'Delete', Escape: 'Esc' };

/** What a key's chip says in the sheet: "ArrowUp" → "↑", "mod+Home" → "Ctrl/⌘ + Home". */
export function keyChip(key: string): string {
  const mod = key.startsWith('mod+');
  const name = mod ? key.slice(4) : key;
  return `${mod ? 'Ctrl/⌘ + ' : ''}${KEY_CHIPS[name] ?? name}`;
}
