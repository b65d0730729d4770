import type { StateCreator } from 'zustand/vanilla';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import type { DrillReport } from '../../../../electron/common/report/drill.js';
import { drillLines } from '../../../../electron/common/report/drill-lines.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';

export interface DrillState {
  /** The comparison drilled; a result for another one is not shown. */
  historyId: string;
  status: 'running' | 'done' | 'failed';
  report?: DrillReport;
  error?: string;
}

export interface DrillSlice {
  drill?: DrillState;
  /** `compare --drill` for the comparison on screen: re-runs its first divergent step in the host's engine. */
  drillCurrent(): Promise<void>;
}

export const createDrillSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], DrillSlice> =>
  (set, get) => ({
    drill: undefined,
    async drillCurrent() {
      const historyId = get().comparison?.historyId;
      if (!historyId || !drillSelectors.canDrill(get()) || get().drill?.status === 'running') return;
      set({ drill: { historyId, status: 'running' } });
      const mine = () => get().drill?.historyId === historyId;
      try {
        const report = await studio.drillHistory({ id: historyId });
        if (mine()) set({ drill: { historyId, status: 'done', report } });
      } catch (error) {
        if (mine()) set({ drill: { historyId, status: 'failed', error: (error as Error).message } });
      }
    },
  });

interface Drillable {
  verdict?: string;
  rerun?: unknown;
  divergence?: { firstStep: number | null };
}
// The same array for the same report: a fresh one per call would re-render forever (see memo.ts).
const linesOf = memoByRef((report: DrillReport) => drillLines(report));
const drillable = (s: StudioState): Drillable => (s.comparison?.report ?? {}) as Drillable;
/** This session's drill of the comparison on screen, else the one saved with it in history. */
const current = (s: StudioState): DrillState | undefined => {
  const comparison = s.comparison;
  if (!comparison) return undefined;
  if (s.drill?.historyId === comparison.historyId) return s.drill;
  return comparison.drill ? { historyId: comparison.historyId, status: 'done', report: comparison.drill } : undefined;
};

export const drillSelectors = {
  /** A synthesized comparison (it has settings to re-run) with a divergent step. */
  canDrill: (s: StudioState): boolean => {
    const r = drillable(s);
    return r.rerun !== undefined && r.divergence?.firstStep !== null && r.divergence?.firstStep !== undefined;
  },
  status: (s: StudioState) => current(s)?.status,
  error: (s: StudioState) => current(s)?.error,
  /** The lines `parity compare --drill` prints, for the comparison on screen. */
  lines: (s: StudioState): string[] | undefined => {
    const report = current(s)?.report;
    return report ? linesOf(report) : undefined;
  },
};
