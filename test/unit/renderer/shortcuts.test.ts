import { describe, expect, it } from 'vitest';
import { SHORTCUTS, shortcutAction, shortcutLabel, type KeyPress } from '../../../renderer/src/lib/shortcut-keys.js';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, typing: false, ...more });
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
