import type { StoreApi } from 'zustand';
import { keyTarget, type KeyTarget } from '../lib/key-target.js';
import { shortcutAction } from '../lib/shortcut-keys.js';
import type { StudioState } from '../store/studio-store.js';

const targetOf = (target: EventTarget | null): KeyTarget =>
  target instanceof HTMLElement
    ? keyTarget({
        tagName: target.tagName,
        type: target instanceof HTMLInputElement ? target.type.toLowerCase() : '',
        role: target.getAttribute('role') ?? '',
        isContentEditable: target.isContentEditable,
        hasHref: target.hasAttribute('href'),
      })
    : 'other';

/** Global keys. Returns the remover. */
export function installShortcuts(store: StoreApi<StudioState>): () => void {
  const onKey = (e: KeyboardEvent) => {
    const s = store.getState();
    const target = targetOf(e.target);
    const press = { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, typing: target === 'text', control: target === 'control', handled: e.defaultPrevented };
    const action = shortcutAction(press, { sheetOpen: s.shortcutsOpen, running: s.status === 'running' || s.drill?.status === 'running' });
    if (action === undefined) return;
    if (action === 'close-sheet') s.setShortcutsOpen(false);
    else if (action === 'toggle-sheet') s.setShortcutsOpen(!s.shortcutsOpen);
    else if (action === 'play') void s.togglePlay();
    else if (action === 'take-A') s.selectTake('A');
    else if (action === 'take-B') s.selectTake('B');
    else if (action === 'take-D') s.selectTake('D');
    else if (action === 'loop') s.toggleLoop();
    else if (action === 'synthesize') void s.start();
    else if (action === 'cancel') {
      void s.cancel();
      void s.cancelDrill();
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
