import { describe, expect, it } from 'vitest';
import { keyTarget, type TargetTraits } from '../../../renderer/src/lib/key-target.js';

const el = (tagName: string, more: Partial<TargetTraits> = {}): TargetTraits => ({ tagName, type: '', role: '', isContentEditable: false, hasHref: false, ...more });

describe('keyTarget: what the focused element does with Space itself', () => {
  it('text fields (and a select, with its type-ahead) are text', () => {
    for (const type of ['text', 'number', 'search', 'email', '']) expect(keyTarget(el('INPUT', { type })), type).toBe('text');
    expect(keyTarget(el('TEXTAREA'))).toBe('text');
    expect(keyTarget(el('SELECT'))).toBe('text');
    expect(keyTarget(el('DIV', { isContentEditable: true }))).toBe('text');
  });

  it('buttons, links with an href, checkboxes, radios and ARIA buttons/radios/tabs are controls (Space presses them)', () => {
    expect(keyTarget(el('BUTTON'))).toBe('control');
    expect(keyTarget(el('BUTTON', { role: 'radio' }))).toBe('control');
    expect(keyTarget(el('A', { hasHref: true }))).toBe('control');
    expect(keyTarget(el('SUMMARY'))).toBe('control');
    for (const type of ['checkbox', 'radio', 'button', 'submit', 'file']) expect(keyTarget(el('INPUT', { type })), type).toBe('control');
    for (const role of ['button', 'tab', 'checkbox', 'switch', 'option', 'link']) expect(keyTarget(el('DIV', { role })), role).toBe('control');
  });

  it('the body, a slider, a grid, a range input and an <a> without href are neither (Space plays there)', () => {
    expect(keyTarget(el('BODY'))).toBe('other');
    expect(keyTarget(el('DIV', { role: 'slider' }))).toBe('other');
    expect(keyTarget(el('DIV', { role: 'grid' }))).toBe('other');
    expect(keyTarget(el('INPUT', { type: 'range' }))).toBe('other');
    expect(keyTarget(el('A'))).toBe('other');
  });
});
