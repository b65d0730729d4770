import type { StateCreator } from 'zustand/vanilla';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../../electron/common/errors.js';
import type { DrillReport } from '../../../../electron/common/report/drill.js';
import { drillLines } from '../../../../electron/common/report/drill-lines.js';
import type { ModuleDrillReport } from '../../../../electron/common/report/module-drill.js';
import { moduleDrillLines } from '../../../../electron/common/report/module-drill-lines.js';
import { userErrorText } from '../../lib/user-error.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';

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
        const previous = current(get())?.report;
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

interface Drillable {
  verdict?: string;
  rerun?: unknown;
  divergence?: { firstStep: number | null };
}
// The same array for the same report: a fresh one per call would re-render forever (see memo.ts).
const linesOf = memoByRef((report: DrillReport) => drillLines(report));
const moduleLinesOf = memoByRef((report: ModuleDrillReport) => moduleDrillLines(report));
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
  running: (s: StudioState) => current(s)?.status === 'running',
  /** True once Cancel was pressed, until the drill stops. */
  cancelling: (s: StudioState) => current(s)?.status === 'running' && current(s)?.cancelAsked === true,
  error: (s: StudioState) => current(s)?.error,
  /** 0..100 for the progress bar. */
  percent: (s: StudioState) => Math.round((current(s)?.progress?.fraction ?? 0) * 100),
  /** What the drill is doing, e.g. "re-running side A (graph) up to step 8: talker step 3 of 8". */
  progressLabel: (s: StudioState): string => {
    const d = current(s);
    if (d?.status !== 'running') return '';
    if (d.cancelAsked) return 'Cancelling…';
    const p = d.progress;
    if (!p) return 'Starting…';
    return p.phase === 'load' ? 'Opening the model bundle…' : (p.message ?? p.phase);
  },
  /** Imported traces with module sidecars: the module drill-down's lines, as `parity compare-trace` prints them. */
  moduleLines: (s: StudioState): string[] | undefined => {
    const report = (s.comparison?.report as { moduleDrill?: ModuleDrillReport } | undefined)?.moduleDrill;
    return report ? moduleLinesOf(report) : undefined;
  },
  /** The drill report of the comparison on screen (this session's, else the one saved with it). */
  report: (s: StudioState): DrillReport | undefined => current(s)?.report,
  /** The lines `parity compare --drill` prints, for the comparison on screen. */
  lines: (s: StudioState): string[] | undefined => {
    const report = current(s)?.report;
    return report ? linesOf(report) : undefined;
  },
};
