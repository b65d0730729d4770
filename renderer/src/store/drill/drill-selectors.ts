import type { DrillReport } from '../../../../electron/common/report/drill.js';
import { drillLines } from '../../../../electron/common/report/drill-lines.js';
import type { ModuleDrillReport } from '../../../../electron/common/report/module-drill.js';
import { moduleDrillLines } from '../../../../electron/common/report/module-drill-lines.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';
import type { DrillState } from './drill-slice.js';

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
  /** A drill result or imported traces' module drill to show. */
  hasResult: (s: StudioState) => drillSelectors.report(s) !== undefined || drillSelectors.moduleLines(s) !== undefined,
  /** The drill report of the comparison on screen (this session's, else the one saved with it). */
  report: (s: StudioState): DrillReport | undefined => current(s)?.report,
  /** The lines `parity compare --drill` prints, for the comparison on screen. */
  lines: (s: StudioState): string[] | undefined => {
    const report = current(s)?.report;
    return report ? linesOf(report) : undefined;
  },
};
