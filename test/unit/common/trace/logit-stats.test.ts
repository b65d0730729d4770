import { describe, expect, it } from 'vitest';
import { countNonFinite, logitStats } from '../../../../electron/common/trace/logit-stats.js';
import { LogitStats } from '../../../../electron/common/trace/step-record.js';

describe('logitStats', () => {
  it('computes mean, population std, min, max, argmax and top-5 by hand', () => {
    // [1, 2, 3, 4]: mean 2.5; deviations ±0.5, ±1.5 → variance (0.25+2.25)·2/4 = 1.25 → std √1.25.
    const s = logitStats(Float32Array.from([1, 2, 3, 4]));
    expect(s.mean).toBe(2.5);
    expect(s.std).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(s).toMatchObject({ min: 1, max: 4, argmax: 3 });
    expect(s.top5).toEqual([{ id: 3, logit: 4 }, { id: 2, logit: 3 }, { id: 1, logit: 2 }, { id: 0, logit: 1 }]);
  });

  it('keeps the five largest, best first, lowest id first on ties, matching a full sort', () => {
    const v = Float32Array.from([0, 5, 1, 5, 9, -3, 2, 9, 2, 7, 0.5]);
    const byHand = [...v].map((logit, id) => ({ id, logit })).sort((a, b) => b.logit - a.logit || a.id - b.id).slice(0, 5);
    expect(logitStats(v).top5).toEqual(byHand);
    expect(logitStats(v).argmax).toBe(4);
  });

  it('agrees with a float64 two-pass reference on 4 096 values', () => {
    const v = new Float32Array(4096).map((_, i) => Math.sin(i * 0.37) * 8 + (i % 13));
    const xs = Array.from(v);
    const mean = xs.reduce((a, b) => a + b) / xs.length;
    const std = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
    const s = logitStats(v);
    expect(Math.abs(s.mean - mean)).toBeLessThan(1e-12);
    expect(Math.abs(s.std - std)).toBeLessThan(1e-12);
    expect(s.max).toBe(Math.max(...xs));
    expect(s.min).toBe(Math.min(...xs));
  });

  it('NaN: mean and std NaN, min/max/top5 over the rest, argmax at the first NaN', () => {
    const s = logitStats(Float32Array.from([1, NaN, 3, NaN]));
    expect(s.mean).toBeNaN();
    expect(s.std).toBeNaN();
    expect(s).toMatchObject({ min: 1, max: 3, argmax: 1 });
    expect(s.top5.map((t) => t.id)).toEqual([2, 0]);
    const all = logitStats(Float32Array.from([NaN, NaN]));
    expect(all.min).toBeNaN();
    expect(all.top5).toEqual([]);
  });

  it('Infinity propagates: mean +Inf, std NaN (Inf − Inf), max Inf', () => {
    const s = logitStats(Float32Array.from([1, Infinity, 0]));
    expect(s.mean).toBe(Infinity);
    expect(s.std).toBeNaN();
    expect(s.max).toBe(Infinity);
    expect(s.argmax).toBe(1);
  });

  it('produces values the StepRecord schema accepts', () => {
    expect(LogitStats.parse(logitStats(Float32Array.from([2, 1])))).toEqual(logitStats(Float32Array.from([2, 1])));
  });
});

describe('countNonFinite', () => {
  it('counts NaN and ±Infinity apart', () => {
    expect(countNonFinite(Float32Array.from([0, NaN, Infinity, -Infinity, 3, NaN]))).toEqual({ nan: 2, inf: 2 });
    expect(countNonFinite([])).toEqual({ nan: 0, inf: 0 });
  });
});
