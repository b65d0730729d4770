import { describe, expect, it } from 'vitest';
import { gridCellAfterKey } from '../../../renderer/src/lib/grid-keys.js';
import { listKeyAction, radioAfterKey, stepAfterKey } from '../../../renderer/src/lib/roving-keys.js';
import { timelineKeyAction } from '../../../renderer/src/lib/timeline-keys.js';
import { SHORTCUTS, WIDGET_KEYS, keyChip, shortcutAction, shortcutLabel, type KeyPress } from '../../../renderer/src/lib/shortcut-keys.js';
import { tabAfterKey } from '../../../renderer/src/lib/tab-keys.js';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, typing: false, control: false, handled: false, ...more });
const idle = { sheetOpen: false, running: false };

describe('shortcutAction', () => {
  it('maps the transport letters and Space outside fields, in either case', () => {
    expect(shortcutAction(press(' '), idle)).toBe('play');
    expect(shortcutAction(press('a'), idle)).toBe('take-A');
    expect(shortcutAction(press('B'), idle)).toBe('take-B');
    expect(shortcutAction(press('d'), idle)).toBe('take-D');
    expect(shortcutAction(press('l'), idle)).toBe('loop');
    expect(shortcutAction(press('?'), idle)).toBe('toggle-sheet');
    expect(shortcutAction(press('x'), idle)).toBeUndefined();
  });

  it('leaves letters alone while typing or with a modifier (a prompt may hold "a"; Ctrl+A selects all)', () => {
    expect(shortcutAction(press('a', { typing: true }), idle)).toBeUndefined();
    expect(shortcutAction(press(' ', { typing: true }), idle)).toBeUndefined();
    expect(shortcutAction(press('a', { ctrlKey: true }), idle)).toBeUndefined();
    expect(shortcutAction(press('?', { typing: true }), idle)).toBeUndefined();
  });

  it('Space on a focused control (Keep, Delete, a link, a checkbox) is that control’s, not play; letters still work there', () => {
    expect(shortcutAction(press(' ', { control: true }), idle)).toBeUndefined();
    expect(shortcutAction(press('a', { control: true }), idle)).toBe('take-A');
    expect(shortcutAction(press('Enter', { control: true, ctrlKey: true }), idle)).toBe('synthesize');
    expect(shortcutAction(press('Escape', { control: true }), { sheetOpen: false, running: true })).toBe('cancel');
  });

  it('a key a widget already handled (defaultPrevented) is not acted on again', () => {
    for (const key of [' ', 'a', '?', 'Escape']) expect(shortcutAction(press(key, { handled: true }), { sheetOpen: true, running: true }), key).toBeUndefined();
    expect(shortcutAction(press('Enter', { ctrlKey: true, handled: true }), idle)).toBeUndefined();
  });

  it('Ctrl+Enter or ⌘+Enter synthesizes, also from inside the prompt; plain or Alt+Enter does not', () => {
    expect(shortcutAction(press('Enter', { ctrlKey: true, typing: true }), idle)).toBe('synthesize');
    expect(shortcutAction(press('Enter', { metaKey: true }), idle)).toBe('synthesize');
    expect(shortcutAction(press('Enter', { typing: true }), idle)).toBeUndefined();
    expect(shortcutAction(press('Enter', { ctrlKey: true, altKey: true }), idle)).toBeUndefined();
  });

  it('Esc closes the sheet first, else cancels a running synthesis, else does nothing', () => {
    expect(shortcutAction(press('Escape'), { sheetOpen: true, running: true })).toBe('close-sheet');
    expect(shortcutAction(press('Escape', { typing: true }), { sheetOpen: false, running: true })).toBe('cancel');
    expect(shortcutAction(press('Escape'), idle)).toBeUndefined();
  });

  it('every key in the sheet has a label the tooltips can show', () => {
    for (const s of SHORTCUTS) expect(shortcutLabel(s.key)).toBe(s.label);
    expect(shortcutLabel('mod+enter')).toBe('Ctrl/⌘ + Enter');
  });
});

describe('WIDGET_KEYS: the ? sheet’s "In lists and charts" section, display only', () => {
  const split = (k: string) => ({ key: k.replace(/^mod\+/, ''), mod: k.startsWith('mod+') });
  // Each widget's own key handler, at a position inside it (not at an edge, so every move moves).
  const handlers: Record<(typeof WIDGET_KEYS)[number]['widget'], (k: { key: string; mod: boolean }) => unknown> = {
    'History list': (k) => listKeyAction(5, 2, k.key),
    'Codes grid': (k) => gridCellAfterKey({ frame: 15, codebook: 2 }, 30, 4, { key: k.key, ctrlKey: k.mod, metaKey: false }),
    'Step chart': (k) => stepAfterKey(1, 30, 15, k.key),
    'A / B / Difference': (k) => radioAfterKey(['A', 'B', 'D'], 'B', k.key),
    'Timeline lanes': (k) => timelineKeyAction(k.key, k.mod),
    'Detail tabs': (k) => tabAfterKey(['waveform', 'steps', 'codes'], 'steps', k.key),
  };

  it('none of its keys is a global shortcut (with or without the focus in a field)', () => {
    for (const w of WIDGET_KEYS) {
      for (const r of w.rows) {
        for (const k of r.keys) {
          const { key, mod } = split(k);
          expect(shortcutAction(press(key, { ctrlKey: mod }), idle), `${w.widget}: ${k}`).toBeUndefined();
          expect(shortcutAction(press(key, { ctrlKey: mod, typing: true }), { sheetOpen: false, running: true }), `${w.widget}: ${k}`).toBeUndefined();
        }
      }
    }
  });

  it('every key listed acts in its widget’s handler, and the two keys of a pair do different things', () => {
    for (const w of WIDGET_KEYS) {
      for (const r of w.rows) {
        const results = r.keys.map((k) => handlers[w.widget](split(k)));
        for (const [i, result] of results.entries()) expect(result, `${w.widget}: ${r.keys[i]}`).toBeDefined();
        if (results.length === 2) expect(results[0], `${w.widget}: ${r.keys.join(' / ')}`).not.toEqual(results[1]);
      }
    }
    // The sheet's wording, checked against the handlers: Delete asks (the row's question), Ctrl+Home is the first cell.
    expect(listKeyAction(5, 2, 'Delete')).toEqual({ kind: 'remove' });
    expect(gridCellAfterKey({ frame: 15, codebook: 2 }, 30, 4, { key: 'Home', ctrlKey: true, metaKey: false })).toEqual({ frame: 1, codebook: 0 });
    expect(gridCellAfterKey({ frame: 15, codebook: 2 }, 30, 4, { key: 'Home', ctrlKey: false, metaKey: false })).toEqual({ frame: 1, codebook: 2 });
  });

  it('key chips: arrows as ↑ ↓ ← →, pages as PgUp/PgDn, mod+ as Ctrl/⌘ (the global sheet’s wording)', () => {
    expect(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].map(keyChip)).toEqual(['↑', '↓', '←', '→']);
    expect(keyChip('PageDown')).toBe('PgDn');
    expect(keyChip('mod+End')).toBe('Ctrl/⌘ + End');
    expect(keyChip('Home')).toBe('Home');
  });
});
