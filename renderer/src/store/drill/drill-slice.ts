import type { StateCreator } from 'zustand/vanilla';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../../electron/common/errors.js';
import type { DrillReport } from '../../../../electron/common/report/drill.js';
import { userErrorText } from '../../lib/user-error.js';
import type { StudioState } from '../studio-store.js';
import { drillSelectors } from './drill-selectors.js';

export interface DrillState {
  /** The comparison drilled; a result for another one is not shown. */
  historyId: string;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  /** The host's job, once it has answered; a cancel asked before that is sent when it does. */
  jobId?: string;
  cancelAsked?: boolean;
  progress?: JobProgress;
  /** The result; while running, or after a cancel or failure, the drill shown before (saved with the entry). */
  report?: DrillReport;
  error?: string;
}

export interface DrillSlice {
  drill?: DrillState;
  /** `compare --drill` for the comparison on screen: re-runs its first divergent step in the host's engine. */
  drillCurrent(): Promise<void>;
  /** Stops the running drill-down; the comparison and the drill saved with it stay as they were. */
  cancelDrill(): Promise<void>;
}

export const createDrillSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], DrillSlice> =>
  (set, get) => {
    const patch = (historyId: string, change: Partial<DrillState>) => {
      const d = get().drill;
      if (d?.historyId === historyId) set({ drill: { ...d, ...change } });
    };
    return {
      drill: undefined,
      async drillCurrent() {
        const historyId = get().comparison?.historyId;
        if (!historyId || !drillSelectors.canDrill(get()) || get().drill?.status === 'running') return;
        const previous = drillSelectors.report(get());
        set({ drill: { historyId, status: 'running', ...(previous ? { report: previous } : {}) } });
        // Progress may arrive before the job id does (the worker starts at once): keep the last per job.
        const early = new Map<string, JobProgress>();
        const off = studio.on('progress', (jobId, progress) => {
          const d = get().drill;
          if (d?.historyId !== historyId || d.status !== 'running') return;
          if (d.jobId === jobId) set({ drill: { ...d, progress } });
          else if (d.jobId === undefined) early.set(jobId, progress);
        });
        try {
          const { jobId } = await studio.drillHistory({ id: historyId });
          patch(historyId, { jobId, ...(early.has(jobId) ? { progress: early.get(jobId) } : {}) });
          if (get().drill?.cancelAsked) void studio.cancel({ jobId });
          const report = await studio.drillResult({ jobId });
          patch(historyId, { status: 'done', report, progress: undefined });
        } catch (error) {
          const cancelled = error instanceof ParityError && error.kind === 'cancelled';
          patch(historyId, cancelled ? { status: 'cancelled', progress: undefined } : { status: 'failed', progress: undefined, error: userErrorText(error) });
        } finally {
          off();
        }
      },
      async cancelDrill() {
        const d = get().drill;
        if (d?.status !== 'running') return;
        set({ drill: { ...d, cancelAsked: true } });
        if (d.jobId) await studio.cancel({ jobId: d.jobId });
      },
    };
  };
