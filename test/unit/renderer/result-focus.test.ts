import { describe, expect, it } from 'vitest';
import { takesResultFocus } from '../../../renderer/src/lib/result-focus.js';

const el = (tagName: string, inside: string[]) => ({ tagName, closest: (selector: string) => (inside.includes(selector) ? {} : null) });

describe('a new result takes the focus to its verdict', () => {
  it('from nowhere, the results or the form’s buttons; never from a field being typed in or the history list', () => {
    const body = el('BODY', []);
    expect(takesResultFocus(null, body)).toBe(true);
    expect(takesResultFocus(body, body)).toBe(true);
    expect(takesResultFocus(el('BUTTON', ['#results']), body)).toBe(true);
    expect(takesResultFocus(el('BUTTON', ['.compare-form']), body)).toBe(true);
    expect(takesResultFocus(el('INPUT', ['.compare-form']), body)).toBe(false);
    expect(takesResultFocus(el('BUTTON', ['.history']), body)).toBe(false);
  });
});
