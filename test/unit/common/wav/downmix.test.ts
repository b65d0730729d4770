import { describe, expect, it } from 'vitest';
import { downmixToMono } from '../../../../electron/common/wav/downmix.js';

describe('downmixToMono', () => {
  it('keeps a single channel as is', () => {
    const x = Float32Array.from([0.1, -0.2]);
    expect(downmixToMono({ channels: [x] })).toEqual({ signal: x, rule: 'mono (single channel, unchanged)' });
  });

  it('takes the mean of two channels and states the rule', () => {
    // (L+R)/2 by hand: (0.5 + 0.25)/2 = 0.375, (−1 + 1)/2 = 0, (0.1 + 0.3)/2 = 0.2 (rounded to float32).
    const result = downmixToMono({ channels: [Float32Array.from([0.5, -1, 0.1]), Float32Array.from([0.25, 1, 0.3])] });
    expect(Array.from(result.signal)).toEqual([0.375, 0, Math.fround(0.2)]);
    expect(result.rule).toBe('mean of 2 channels (L+R)/2');
  });

  it('takes the mean of N channels', () => {
    const result = downmixToMono({ channels: [0.3, 0.6, 0.9].map((v) => Float32Array.from([v])) });
    expect(result.signal[0]).toBeCloseTo(0.6, 6);
    expect(result.rule).toBe('mean of 3 channels (sum/3)');
  });
});
