import { describe, expect, it } from 'vitest';
import { niceAxis, tickLabel } from '../../../../electron/common/draw/nice-ticks.js';
import { stepBins } from '../../../../electron/common/draw/sweep-charts.js';

describe('round axis ticks and step bins (sweep charts)', () => {
  it('puts 1/2/5 × 10^k ticks inside ends a little past the data, never on the data edge', () => {
    const a = niceAxis(-0.23, 0.97, 5);
    expect(a.step).toBe(0.5);
    expect(a.ticks).toEqual([0, 0.5, 1]);
    expect(a.lo).toBeLessThan(-0.23);
    expect(a.hi).toBeGreaterThan(0.97);
    expect(a.hi).toBeLessThan(1.1);
    expect(niceAxis(0, 100, 4).ticks).toEqual([0, 50, 100]);
    // One value: a narrow window around it, not 0..2.
    const one = niceAxis(1, 1);
    expect(one.lo).toBeGreaterThan(0.9);
    expect(one.hi).toBeLessThan(1.1);
    expect(tickLabel(-0.5, 0.5)).toBe('−0.5');
    expect(tickLabel(20, 10)).toBe('20');
  });

  it('bins steps one per step up to 60 steps of range, wider bins beyond', () => {
    expect(stepBins([{ step: 2, count: 3 }, { step: 5, count: 1 }])).toEqual([{ from: 2, to: 2, count: 3 }, { from: 5, to: 5, count: 1 }]);
    const wide = stepBins([{ step: 1, count: 1 }, { step: 2, count: 1 }, { step: 300, count: 2 }]);
    expect(wide[0]).toEqual({ from: 0, to: 9, count: 2 });
    expect(wide[1]).toEqual({ from: 300, to: 309, count: 2 });
  });
});
