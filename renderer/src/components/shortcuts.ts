import type { StoreApi } from 'zustand';
import type { StudioState } from '../store/studio-store.js';

/** The transport's keys, in one table so the buttons' tooltips and the ? sheet say the same thing. */
export const SHORTCUTS = [
  { key: ' ', label: 'Space', action: 'Play / pause' },
  { key: 'a', label: 'A', action: 'Listen to A (same position)' },
  { key: 'b', label: 'B', action: 'Listen to B (same position)' },
  { key: 'd', label: 'D', action: 'Listen to the difference A − B' },
  { key: 'l', label: 'L', action: 'Loop the selected region (or what is in view) on/off' },
  { key: '?', label: '?', action: 'Show this sheet' },
] as const;

export const shortcutLabel = (key: string) => SHORTCUTS.find((s) => s.key === key)?.label ?? key;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) && (target as HTMLInputElement).type !== 'range' && (target as HTMLInputElement).type !== 'checkbox');

/** Global keys; ignored while typing in a field. Returns the remover. */
export function installShortcuts(store: StoreApi<StudioState>): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    const s = store.getState();
    const key = e.key.toLowerCase();
    if (key === 'escape' && s.shortcutsOpen) s.setShortcutsOpen(false);
    else if (e.key === '?') s.setShortcutsOpen(!s.shortcutsOpen);
    else if (key === ' ') void s.togglePlay();
    else if (key === 'a') s.selectTake('A');
    else if (key === 'b') s.selectTake('B');
    else if (key === 'd') s.selectTake('D');
    else if (key === 'l') s.toggleLoop();
    else return;
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
