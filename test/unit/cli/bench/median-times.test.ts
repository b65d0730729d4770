import { describe, expect, it } from 'vitest';
import { interleavedMedianTimes, median, medianTimes } from '../../../../electron/cli/bench/median-times.js';

describe('interleavedMedianTimes', () => {
  it('warms every piece up before timing any, then takes turns run by run', async () => {
    const calls: string[] = [];
    const times = await interleavedMedianTimes(3, [() => calls.push('a'), () => calls.push('b')]);
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(times).toHaveLength(2);
    for (const t of times) {
      expect(t.wallMs).toBeGreaterThanOrEqual(0);
      expect(t.cpuMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('medianTimes is the one-piece case: one warm-up, then the runs', async () => {
    let calls = 0;
    await medianTimes(4, () => calls++);
    expect(calls).toBe(5);
  });

  it('median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });
});
