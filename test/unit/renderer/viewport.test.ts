import { describe, expect, it } from 'vitest';
import { timeTicks } from '../../../electron/common/draw/time-ticks.js';
import { timeToX, xToTime } from '../../../electron/common/draw/viewport.js';
import { clampViewport, minSpan, MAX_PX_PER_SAMPLE, panBy, sliderFromSpan, spanFromSlider, zoomAt } from '../../../renderer/src/lib/viewport.js';

// Exact arithmetic on small binary-friendly numbers; 1e-9 s covers float rounding of sums of seconds.
const EPS = 1e-9;

describe('shared viewport math', () => {
  it('zooms about an anchor that stays at the same x, and clamps to the take', () => {
    const vp = { start: 0, end: 2 };
    const z = zoomAt(vp, 4, 0.5, 2, 0.001);
    expect(z.end - z.start).toBeCloseTo(0.5, 9);
    // 0.5 s was at x = 25 % of the width before and must be there after.
    expect(timeToX(z, 1000, 0.5)).toBeCloseTo(timeToX(vp, 1000, 0.5), 6);
    // Zooming out past the take fits it; scrolling past an end stops there.
    expect(zoomAt(z, 0.01, 1, 2, 0.001)).toEqual({ start: 0, end: 2 });
    const panned = panBy({ start: 1.5, end: 1.9 }, 5, 2, 0.001);
    expect(panned.end).toBe(2);
    expect(Math.abs(panned.start - 1.6)).toBeLessThan(EPS);
    expect(clampViewport({ start: -1, end: 0.2 }, 2, 0.001)).toEqual({ start: 0, end: 1.2 });
  });

  it('reaches single samples: the narrowest window puts MAX_PX_PER_SAMPLE px between samples', () => {
    const least = minSpan(960, 24000, 2);
    expect(least * 24000).toBeCloseTo(960 / MAX_PX_PER_SAMPLE, 9);
    expect(zoomAt({ start: 0, end: 2 }, 1e9, 1, 2, least).end - zoomAt({ start: 0, end: 2 }, 1e9, 1, 2, least).start).toBeCloseTo(least, 12);
    expect(xToTime({ start: 1, end: 1 + least }, 960, 32)).toBeCloseTo(1 + 1 / 24000, 12);
  });

  it('maps the zoom slider logarithmically, so every part of its travel changes the window', () => {
    const duration = 2;
    const least = minSpan(1000, 24000, duration);
    expect(spanFromSlider(0, duration, least)).toBeCloseTo(duration, 12);
    expect(spanFromSlider(1, duration, least)).toBeCloseTo(least, 12);
    // Equal slider steps divide the span by equal factors (log scale): 0.25 steps of a 10 ms..2 s range.
    const spans = [0, 0.25, 0.5, 0.75, 1].map((p) => spanFromSlider(p, duration, least));
    const ratios = spans.slice(1).map((s, i) => spans[i] / s);
    for (const r of ratios) expect(r).toBeCloseTo(ratios[0], 9);
    expect(ratios[0]).toBeGreaterThan(1);
    for (const p of [0, 0.3, 0.9]) expect(sliderFromSpan(spanFromSlider(p, duration, least), duration, least)).toBeCloseTo(p, 9);
  });
});

describe('time ruler ticks', () => {
  it('labels seconds when zoomed out, milliseconds in between, sample indices close up', () => {
    const whole = timeTicks({ start: 0, end: 2 }, 1000, 24000);
    expect(whole.unit).toBe('s');
    // 80 px at 500 px/s is 0.16 s: the next 1-2-5 step is 0.2 s.
    expect(whole.ticks.map((t) => t.label)).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0', '1.2', '1.4', '1.6', '1.8', '2.0']);
    expect(whole.ticks[1].x).toBeCloseTo(100, 9);
    const ms = timeTicks({ start: 1, end: 1.05 }, 1000, 24000);
    expect(ms.unit).toBe('ms');
    // 80 px of a 50 ms window is 4 ms → 5 ms steps, labelled in ms.
    expect(ms.ticks[0].label).toBe('1000');
    expect(ms.ticks[1].t - ms.ticks[0].t).toBeCloseTo(0.005, 12);
    const samples = timeTicks({ start: 1, end: 1 + 30 / 24000 }, 960, 24000);
    expect(samples.unit).toBe('samples');
    // 80 px at 32 px per sample is 2.5 samples → ticks every 5 samples from 24000.
    expect(samples.ticks.map((t) => t.label)).toEqual(['24000', '24005', '24010', '24015', '24020', '24025', '24030']);
    expect(samples.ticks[1].x - samples.ticks[0].x).toBeCloseTo(5 * 32, 6);
  });
});
