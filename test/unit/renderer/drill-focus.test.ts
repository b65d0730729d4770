import { describe, expect, it } from 'vitest';
import { drillFocusTarget } from '../../../renderer/src/lib/drill-focus.js';

describe('drillFocusTarget (the focus never drops to <body> around a drill-down)', () => {
  it('starting: Drill down is disabled, so the focus goes to Cancel', () => {
    expect(drillFocusTarget(undefined, 'running', true)).toBe('cancel');
    expect(drillFocusTarget('done', 'running', true)).toBe('cancel');
    expect(drillFocusTarget('cancelled', 'running', true)).toBe('cancel');
  });

  it('ending: the result heading when done, back to Drill down when cancelled or failed', () => {
    expect(drillFocusTarget('running', 'done', true)).toBe('result');
    expect(drillFocusTarget('running', 'cancelled', true)).toBe('drill');
    expect(drillFocusTarget('running', 'failed', true)).toBe('drill');
  });

  it('moves nothing when the user is elsewhere, when nothing changed, or for a drill shown from history', () => {
    expect(drillFocusTarget(undefined, 'running', false)).toBeUndefined();
    expect(drillFocusTarget('running', 'done', false)).toBeUndefined();
    expect(drillFocusTarget('running', 'running', true)).toBeUndefined();
    expect(drillFocusTarget(undefined, 'done', true)).toBeUndefined();
    expect(drillFocusTarget('done', undefined, true)).toBeUndefined();
  });
});
