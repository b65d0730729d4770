import type uPlot from 'uplot';
import type { StoreApi } from 'zustand';
import type { StudioState } from '../store/studio-store.js';

/**
 * Keeps a uPlot chart's x range on the shared viewport (the lanes' time window), `toX` mapping seconds
 * to the chart's x unit (seconds for loudness; step numbers for the step chart: frame N from step N
 * starts at (N − 1)/fps), kept inside `bounds` when given. Returns the unsubscribe, for the chart's destroy hook.
 */
export function followViewport(store: StoreApi<StudioState>, chart: uPlot, toX: (sec: number) => number, bounds?: { min: number; max: number }): () => void {
  const apply = () => {
    const vp = store.getState().viewport;
    if (!(vp.end > vp.start)) return;
    // Past the data's ends (`bounds`) the chart stops: a 7-step chart does not run its axis to 8.
    const min = bounds ? Math.max(bounds.min, toX(vp.start)) : toX(vp.start);
    const max = bounds ? Math.min(bounds.max, toX(vp.end)) : toX(vp.end);
    if (max > min) chart.setScale('x', { min, max });
  };
  apply();
  return store.subscribe((now, before) => {
    if (now.viewport !== before.viewport) apply();
  });
}
