import { describe, expect, it } from 'vitest';
import { tabAfterKey } from '../../../renderer/src/lib/tab-keys.js';

const TABS = ['metrics', 'steps', 'codes', 'numerics', 'abx'] as const;

describe('tabAfterKey (WAI-ARIA APG tabs: arrows wrap, Home/End go to the ends)', () => {
  it('moves right and left, wrapping at both ends', () => {
    expect(tabAfterKey(TABS, 'metrics', 'ArrowRight')).toBe('steps');
    expect(tabAfterKey(TABS, 'abx', 'ArrowRight')).toBe('metrics');
    expect(tabAfterKey(TABS, 'metrics', 'ArrowLeft')).toBe('abx');
    expect(tabAfterKey(TABS, 'codes', 'ArrowLeft')).toBe('steps');
  });

  it('Home and End; other keys and unknown tabs give nothing', () => {
    expect(tabAfterKey(TABS, 'codes', 'Home')).toBe('metrics');
    expect(tabAfterKey(TABS, 'codes', 'End')).toBe('abx');
    expect(tabAfterKey(TABS, 'codes', 'Enter')).toBeUndefined();
    expect(tabAfterKey(TABS, 'nope' as (typeof TABS)[number], 'ArrowRight')).toBeUndefined();
    expect(tabAfterKey([], 'x', 'ArrowRight')).toBeUndefined();
  });
});
