import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { DrillReport } from '../../../electron/common/report/drill.js';
import { drillSelectors } from '../../../renderer/src/store/drill/drill-slice.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const rerun = { text: 'Hi.', profileA: 'eager', profileB: 'eager,fault=stale-feedback@8', seed: 0, sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 } };
const diverged = (historyId: string) => ({ historyId, report: { verdict: 'diverged', rerun, divergence: { firstStep: 8, stage: 'talker-logits' } } }) as unknown as ComparisonResult;
const report: DrillReport = {
  status: 'nothing-differs',
  step: 8,
  divergenceStage: 'talker-logits',
  network: 'talker',
  tolerance: { abs: 1e-4, rel: 0 },
  input: null,
  node: null,
  compared: 30,
  skipped: 0,
  unmatched: 0,
  summary: 'step 8 (talker): nothing differs: all 30 compared tensors (inputs and node outputs) match within |Δ| ≤ 0.0001',
};

describe('drill slice', () => {
  it('drills the comparison on screen and shows the lines compare --drill prints', async () => {
    const asked: string[] = [];
    const store = createStudioStore({ drillHistory: async ({ id }: { id: string }) => (asked.push(id), report) } as unknown as StudioApi);
    store.getState().showComparison(diverged('20250101-000000-aaaaaa'));
    expect(drillSelectors.canDrill(store.getState())).toBe(true);
    await store.getState().drillCurrent();
    expect(asked).toEqual(['20250101-000000-aaaaaa']);
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    // Same array for the same state: zustand compares selector results by reference.
    expect(drillSelectors.lines(store.getState())).toBe(drillSelectors.lines(store.getState()));
    // Another comparison on screen: the old result is not shown under it.
    store.getState().showComparison(diverged('20250101-000000-bbbbbb'));
    expect(drillSelectors.lines(store.getState())).toBeUndefined();
  });

  it('no drill for imports (no settings) or comparisons without a divergent step; a failure is shown', async () => {
    const store = createStudioStore({ drillHistory: async () => Promise.reject(new Error('engine gone')) } as unknown as StudioApi);
    store.getState().showComparison({ historyId: '20250101-000000-cccccc', report: { kind: 'wavs' } } as unknown as ComparisonResult);
    expect(drillSelectors.canDrill(store.getState())).toBe(false);
    store.getState().showComparison({ historyId: '20250101-000000-dddddd', report: { rerun, divergence: { firstStep: null, stage: null } } } as unknown as ComparisonResult);
    expect(drillSelectors.canDrill(store.getState())).toBe(false);
    store.getState().showComparison(diverged('20250101-000000-eeeeee'));
    await store.getState().drillCurrent();
    expect(drillSelectors.status(store.getState())).toBe('failed');
    expect(drillSelectors.error(store.getState())).toBe('engine gone');
  });

  it('a drill saved with the history entry is shown when the comparison is reopened; a new drill replaces it', async () => {
    const fresh = { ...report, summary: 'step 8 (talker): drilled again' };
    const store = createStudioStore({ drillHistory: async () => fresh } as unknown as StudioApi);
    store.getState().showComparison({ ...diverged('20250101-000000-ffffff'), drill: report });
    expect(drillSelectors.status(store.getState())).toBe('done');
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    await store.getState().drillCurrent();
    expect(drillSelectors.lines(store.getState())?.[0]).toBe('Drill-down: step 8 (talker): drilled again');
    // Another entry without a saved drill shows none.
    store.getState().showComparison(diverged('20250101-000000-abcabc'));
    expect(drillSelectors.status(store.getState())).toBeUndefined();
    expect(drillSelectors.lines(store.getState())).toBeUndefined();
  });
});
