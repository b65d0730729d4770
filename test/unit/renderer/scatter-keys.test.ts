import { describe, expect, it } from 'vitest';
import { scatterDotAfterKey } from '../../../renderer/src/lib/scatter-keys.js';

// Plot units, y downwards. 0 and 1 share a place (two verdicts on one pixel); 2 is right of them on
// their line, 3 is further right but far below; 4 is straight above 0.
const dots = [
  { x: 10, y: 50 },
  { x: 10, y: 50 },
  { x: 30, y: 52 },
  { x: 25, y: 90 },
  { x: 10, y: 10 },
];

describe('scatter keys: spatial navigation over the dots', () => {
  it('starts at the first dot in reading order; Home and End go to the first and last', () => {
    // Reading order: x, then y, then drawing order: 4 (10,10), 0 and 1 (10,50), 3 (25,90), 2 (30,52).
    expect(scatterDotAfterKey(dots, undefined, 'ArrowRight')).toBe(4);
    expect(scatterDotAfterKey(dots, 2, 'Home')).toBe(4);
    expect(scatterDotAfterKey(dots, 0, 'End')).toBe(2);
  });

  it('an arrow goes to the nearest dot that way, keeping to its line', () => {
    // From 1 rightwards: 3 is nearer on x (15) but 40 below (score 95); 2 is 20 along and 2 off (score 24).
    expect(scatterDotAfterKey(dots, 1, 'ArrowRight')).toBe(2);
    expect(scatterDotAfterKey(dots, 2, 'ArrowDown')).toBe(3);
    expect(scatterDotAfterKey(dots, 0, 'ArrowUp')).toBe(4);
    // Nothing further that way: stays.
    expect(scatterDotAfterKey(dots, 2, 'ArrowRight')).toBe(2);
    expect(scatterDotAfterKey(dots, 4, 'ArrowUp')).toBe(4);
  });

  it('steps through dots on one place with Right and Left, so none is out of reach', () => {
    expect(scatterDotAfterKey(dots, 0, 'ArrowRight')).toBe(1);
    expect(scatterDotAfterKey(dots, 1, 'ArrowLeft')).toBe(0);
    expect(scatterDotAfterKey(dots, 0, 'ArrowLeft')).toBe(0); // nothing to its left, and the other dot there is after it
  });

  it('ignores other keys and an empty scatter', () => {
    expect(scatterDotAfterKey(dots, 0, 'a')).toBeUndefined();
    expect(scatterDotAfterKey([], undefined, 'ArrowRight')).toBeUndefined();
  });
});
