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
