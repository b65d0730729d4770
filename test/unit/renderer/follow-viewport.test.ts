import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { followViewport } from '../../../renderer/src/components/follow-viewport.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

describe('charts follow the lanes’ viewport', () => {
  it('sets the chart’s x range to the viewport in its own unit (steps: t·fps + 1), and stops when told', () => {
    const store = createStudioStore({} as StudioApi);
    const take = { sampleRate: 24000, samples: new Float32Array(4 * 24000) };
    store.getState().showComparison({ historyId: 'h', a: take, b: take, report: {} } as unknown as ComparisonResult);
    const scales: { min?: number; max?: number }[] = [];
    const chart = { setScale: (_key: string, s: { min?: number; max?: number }) => scales.push(s) } as unknown as uPlot;
    const off = followViewport(store, chart, (sec) => sec * 12.5 + 1);
    // The whole 4 s take: steps 1 … 51 (frame N from step N starts at (N − 1)/12.5 s).
    expect(scales.at(-1)).toEqual({ min: 1, max: 51 });
    store.getState().setViewport({ start: 1, end: 2 });
    expect(scales.at(-1)).toEqual({ min: 13.5, max: 26 });
    off();
    store.getState().setViewport({ start: 2, end: 3 });
    expect(scales).toHaveLength(2);
  });
});
