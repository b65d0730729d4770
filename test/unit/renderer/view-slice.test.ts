import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import { MAX_PX_PER_SAMPLE } from '../../../renderer/src/lib/viewport.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const rate = 24000;
const take = (n: number) => ({ sampleRate: rate, samples: new Float32Array(n) });
const comparison = { historyId: 'h1', a: take(2 * rate), b: take(2 * rate), report: { kind: 'wavs' } } as unknown as ComparisonResult;

describe('view slice: one viewport for every lane', () => {
  it('a new comparison shows the whole take; zoom, scroll and fit move that one window, within the take', () => {
    const store = createStudioStore({} as StudioApi);
    store.getState().setLaneWidth(1000);
    store.getState().showComparison(comparison);
    expect(store.getState().viewport).toEqual({ start: 0, end: 2 });
    store.getState().zoomBy(4, 1);
    expect(store.getState().viewport).toEqual({ start: 0.75, end: 1.25 });
    store.getState().scrollBy(10);
    expect(store.getState().viewport).toEqual({ start: 1.5, end: 2 });
    // Zooming as far as it goes stops at MAX_PX_PER_SAMPLE px per sample: 1000 px show 31.25 samples.
    store.getState().zoomBy(1e12);
    const vp = store.getState().viewport;
    expect((vp.end - vp.start) * rate).toBeCloseTo(1000 / MAX_PX_PER_SAMPLE, 6);
    store.getState().setZoom(0);
    expect(store.getState().viewport).toEqual({ start: 0, end: 2 });
  });
});

describe('Difference playback follows the difference on screen', () => {
  it('loads the aligned difference (B shifted by the report’s lag, gain-matched) and the raw one after the toggle', () => {
    // B = 0.5 × A delayed by 3 samples: the report says lag 3, gain 20·log10(2) dB (g·B ≈ A, g = 2).
    const a = Float32Array.from({ length: 4800 }, (_, i) => Math.sin(i / 9));
    const b = Float32Array.from({ length: 4800 }, (_, i) => (i >= 3 ? 0.5 * a[i - 3] : 0));
    const loaded: Float32Array[] = [];
    const player = { load: (t: { d?: Float32Array }) => loaded.push(t.d!), unload: () => undefined, duration: () => 0.2, play: async () => undefined, pause: () => 0, position: () => 0, setGains: () => undefined, setLoop: () => undefined, onFrame: () => () => undefined };
    const store = createStudioStore({} as StudioApi, player);
    const report = { metrics: { lagSamples: 3, fractionalLagSamples: 3, gainDb: 20 * Math.log10(2), xcorrPeak: 0.99 } };
    store.getState().showComparison({ historyId: 'h2', a: { sampleRate: rate, samples: a }, b: { sampleRate: rate, samples: b }, report } as unknown as ComparisonResult);
    // Aligned: A[n] − 2·B[n + 3] = 0 wherever B[n + 3] exists (the last 3 samples have no partner: 0).
    expect(Math.max(...loaded[0].map(Math.abs))).toBeLessThan(1e-6);
    store.getState().toggleDiffAligned();
    // Raw: A − B at lag 0, as loud as the signal.
    expect(loaded).toHaveLength(2);
    expect(loaded[1][100]).toBeCloseTo(a[100] - b[100], 6);
    expect(Math.max(...loaded[1].map(Math.abs))).toBeGreaterThan(0.3);
  });
});
