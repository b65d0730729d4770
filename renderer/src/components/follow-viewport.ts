import type uPlot from 'uplot';
import type { StoreApi } from 'zustand';
import type { StudioState } from '../store/studio-store.js';

/**
 * Keeps a uPlot chart's x range on the shared viewport (the lanes' time window), `toX` mapping seconds
 * to the chart's x unit (seconds for loudness; step numbers for the step chart: frame N from step N
 * starts at (N − 1)/fps). Returns the unsubscribe, for the chart's destroy hook.
 */
export function followViewport(store: StoreApi<StudioState>, chart: uPlot, toX: (sec: number) => number): () => void {
  const apply = () => {
    const vp = store.getState().viewport;
    if (vp.end > vp.start) chart.setScale('x', { min: toX(vp.start), max: toX(vp.end) });
  };
  apply();
  return store.subscribe((now, before) => {
    if (now.viewport !== before.viewport) apply();
  });
}
