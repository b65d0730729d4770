import { describe, expect, it } from 'vitest';
import { confirmKeyAction, indexAfterRemove, listKeyAction, radioAfterKey, radioTabStop, rowAfterMove, stepAfterKey } from '../../../renderer/src/lib/roving-keys.js';

const TAKES = ['A', 'B', 'D'] as const;

describe('radioAfterKey (WAI-ARIA APG radio group: arrows check the next/previous radio, wrapping)', () => {
  it('Right and Down check the next, Left and Up the previous, wrapping at both ends', () => {
    expect(radioAfterKey(TAKES, 'A', 'ArrowRight')).toBe('B');
    expect(radioAfterKey(TAKES, 'A', 'ArrowDown')).toBe('B');
    expect(radioAfterKey(TAKES, 'D', 'ArrowRight')).toBe('A');
    expect(radioAfterKey(TAKES, 'A', 'ArrowLeft')).toBe('D');
    expect(radioAfterKey(TAKES, 'B', 'ArrowUp')).toBe('A');
  });

  it('other keys (Tab leaves the group, Space/Enter are the buttons’ own) and an empty group give nothing', () => {
    for (const key of ['Tab', ' ', 'Enter', 'Home', 'a']) expect(radioAfterKey(TAKES, 'B', key)).toBeUndefined();
    expect(radioAfterKey([], 'A', 'ArrowRight')).toBeUndefined();
  });

  it('while none is checked (ABX plays X) the first radio is the tab stop and the arrows move from it', () => {
    const X = 'X' as (typeof TAKES)[number];
    expect(radioTabStop(TAKES, X)).toBe('A');
    expect(radioAfterKey(TAKES, X, 'ArrowRight')).toBe('B');
    expect(radioAfterKey(TAKES, X, 'ArrowLeft')).toBe('D');
    expect(radioAfterKey(TAKES, X, 'Tab')).toBeUndefined();
    expect(radioTabStop(TAKES, 'D')).toBe('D');
    expect(radioTabStop([], X)).toBeUndefined();
  });
});

describe('listKeyAction (history list, one tab stop: arrows move, Enter opens, Delete removes)', () => {
  it('Up/Down move one row and stop at the ends (no wrap, as in a listbox); Home/End go to the ends', () => {
    expect(listKeyAction(12, 0, 'ArrowDown')).toEqual({ kind: 'move', index: 1 });
    expect(listKeyAction(12, 11, 'ArrowDown')).toEqual({ kind: 'move', index: 11 });
    expect(listKeyAction(12, 5, 'ArrowUp')).toEqual({ kind: 'move', index: 4 });
    expect(listKeyAction(12, 0, 'ArrowUp')).toEqual({ kind: 'move', index: 0 });
    expect(listKeyAction(12, 5, 'Home')).toEqual({ kind: 'move', index: 0 });
    expect(listKeyAction(12, 5, 'End')).toEqual({ kind: 'move', index: 11 });
  });

  it('a stale index (rows removed meanwhile) is clamped into the list', () => {
    expect(listKeyAction(3, 9, 'ArrowUp')).toEqual({ kind: 'move', index: 1 });
  });

  it('Enter opens, Delete removes; Tab, Backspace and letters are left to the page; an empty list takes no key', () => {
    expect(listKeyAction(3, 1, 'Enter')).toEqual({ kind: 'open' });
    expect(listKeyAction(3, 1, 'Delete')).toEqual({ kind: 'remove' });
    for (const key of ['Tab', 'Backspace', 'a', ' ', 'ArrowRight']) expect(listKeyAction(3, 1, key)).toBeUndefined();
    expect(listKeyAction(0, 0, 'ArrowDown')).toBeUndefined();
  });

  it('a held Delete’s auto-repeat asks nothing; the other keys act on a repeat as on a press', () => {
    expect(listKeyAction(3, 1, 'Delete', true)).toBeUndefined();
    expect(listKeyAction(3, 1, 'Delete', false)).toEqual({ kind: 'remove' });
    expect(listKeyAction(3, 1, 'ArrowDown', true)).toEqual({ kind: 'move', index: 2 });
  });

  it('a move onto the row asking "Delete …?" (no row button) goes one further, else back the other way', () => {
    // Rows 0..4, row 2 asking.
    expect(rowAfterMove(5, 1, 2, 2)).toBe(3);
    expect(rowAfterMove(5, 3, 2, 2)).toBe(1);
    expect(rowAfterMove(5, 3, 0, 0)).toBe(1); // Home onto an asking first row
    expect(rowAfterMove(5, 1, 4, 4)).toBe(3); // End onto an asking last row
    expect(rowAfterMove(3, 1, 2, 2)).toBe(1); // Down onto an asking last row: stay
    expect(rowAfterMove(2, 1, 0, 0)).toBe(1);
    expect(rowAfterMove(5, 1, 3, 2)).toBe(3);
    expect(rowAfterMove(5, 1, 2, undefined)).toBe(2);
  });

  it('after a removal the focus goes to the row that took its place, else the one above, else nowhere', () => {
    expect(indexAfterRemove(5, 2)).toBe(2);
    expect(indexAfterRemove(5, 4)).toBe(3);
    expect(indexAfterRemove(1, 0)).toBeUndefined();
  });
});

describe('confirmKeyAction (a history row asking "Delete …? [Delete] [Keep]", focus first on Keep)', () => {
  it('Enter presses the focused button: on Keep it keeps, on Delete it deletes', () => {
    expect(confirmKeyAction('keep', 'Enter')).toBe('keep');
    expect(confirmKeyAction('delete', 'Enter')).toBe('confirm');
  });

  it('Delete pressed again confirms and Esc keeps, from either button', () => {
    for (const on of ['keep', 'delete'] as const) {
      expect(confirmKeyAction(on, 'Delete')).toBe('confirm');
      expect(confirmKeyAction(on, 'Escape')).toBe('keep');
    }
  });

  it('a held key’s auto-repeat never confirms: the Delete that asked, repeating on Keep (or Enter on Delete), is swallowed', () => {
    expect(confirmKeyAction('keep', 'Delete', true)).toBe('ignore');
    expect(confirmKeyAction('delete', 'Delete', true)).toBe('ignore');
    expect(confirmKeyAction('delete', 'Enter', true)).toBe('ignore');
    // Keeping is harmless: a repeat keeps as a press does.
    expect(confirmKeyAction('keep', 'Enter', true)).toBe('keep');
    expect(confirmKeyAction('keep', 'Escape', true)).toBe('keep');
    expect(confirmKeyAction('keep', 'Delete', false)).toBe('confirm');
  });

  it('Left/Right go to the other button; Tab, Space (the button’s own click), Backspace and letters are left alone', () => {
    expect(confirmKeyAction('keep', 'ArrowLeft')).toBe('other-button');
    expect(confirmKeyAction('delete', 'ArrowRight')).toBe('other-button');
    for (const key of ['Tab', ' ', 'Backspace', 'ArrowDown', 'y']) expect(confirmKeyAction('keep', key)).toBeUndefined();
  });
});

describe('stepAfterKey (step-trace chart as a WAI-ARIA APG slider over steps)', () => {
  it('Left/Right one step, PageUp/PageDown ten, clamped to first..last; Up/Down as Right/Left', () => {
    expect(stepAfterKey(1, 115, 8, 'ArrowRight')).toBe(9);
    expect(stepAfterKey(1, 115, 8, 'ArrowLeft')).toBe(7);
    expect(stepAfterKey(1, 115, 8, 'ArrowUp')).toBe(9);
    expect(stepAfterKey(1, 115, 8, 'ArrowDown')).toBe(7);
    expect(stepAfterKey(1, 115, 1, 'ArrowLeft')).toBe(1);
    expect(stepAfterKey(1, 115, 115, 'ArrowRight')).toBe(115);
    expect(stepAfterKey(1, 115, 8, 'PageUp')).toBe(18);
    expect(stepAfterKey(1, 115, 8, 'PageDown')).toBe(1);
  });

  it('Home/End go to the ends; with nothing picked a move starts at the first step; other keys give nothing', () => {
    expect(stepAfterKey(1, 115, 50, 'Home')).toBe(1);
    expect(stepAfterKey(1, 115, undefined, 'End')).toBe(115);
    expect(stepAfterKey(1, 115, undefined, 'ArrowRight')).toBe(1);
    expect(stepAfterKey(1, 115, undefined, 'ArrowLeft')).toBe(1);
    expect(stepAfterKey(1, 115, 8, 'Enter')).toBeUndefined();
    expect(stepAfterKey(5, 4, undefined, 'Home')).toBeUndefined();
  });
});
