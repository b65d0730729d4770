import type { StateCreator } from 'zustand/vanilla';
import type { SweepSummary, SummaryCase } from '../../../../electron/common/sweep/sweep-summary.js';
import type { StepRange } from '../../../../electron/common/draw/sweep-charts.js';
import type { ScatterDomain } from '../../../../electron/common/draw/sweep-scatter.js';
import type { StudioState } from '../studio-store.js';

/** Columns the case table sorts by. */
export type SweepSortKey = 'index' | 'verdict' | 'firstStep' | 'correlation' | 'loudnessDeltaLU' | 'lsdDb' | 'mcdDb';

/** What the case table shows: every field narrows ('' or 'all' = no narrowing); `text` searches the key and prompt. */
export interface SweepFilter {
  verdict: SummaryCase['verdict'] | 'all';
  stage: NonNullable<SummaryCase['stage']> | 'all';
  flip: 'all' | 'near-tie' | 'real';
  text: string;
  /** Only the cases whose verdict differs from the sweep opened beside (before/after). */
  changedOnly: boolean;
  /** Only the cases whose first divergent step is in this range (a bin of the histogram); null: any. */
  steps: StepRange | null;
}

export const NO_FILTER: SweepFilter = { verdict: 'all', stage: 'all', flip: 'all', text: '', changedOnly: false, steps: null };

/** The scatter's zoom (a brushed window: correlation × ΔLU); undefined: all the cases. */
export type SweepZoom = ScatterDomain | undefined;

/** A file of a picked folder: its path inside the pick (webkitRelativePath, `merged/sweep.json`) and its bytes on demand. */
export interface FolderFile {
  path: string;
  read(): Promise<Uint8Array>;
}

export interface SweepSlice {
  /**
   * A merged sweep (sweep.json) opened in the studio, with the name of its file; when its whole folder was
   * opened, the files of the worst cases' fixtures by case key.
   */
  sweep?: { name: string; summary: SweepSummary; fixtures?: Record<string, FolderFile[]> };
  sweepSort: { key: SweepSortKey; descending: boolean };
  sweepFilter: SweepFilter;
  sweepZoom: SweepZoom;
  /** A second sweep opened beside the first (before a fix, say): the cases whose verdict changed come first. */
  sweepBefore?: { name: string; summary: SweepSummary };
  /** The main view shows the sweep dashboard (true) or the comparison; a case opened from it leaves a way back. */
  sweepShown: boolean;
  /** Sweep or comparison in the main view; the sweep keeps its filters, sort and zoom. */
  showSweep(shown: boolean): void;
  setSweepFilter(filter: Partial<SweepFilter>): void;
  zoomSweep(zoom: SweepZoom): void;
  closeSweepBefore(): void;
  closeSweep(): void;
  /** Sorts by `key`; the same key again reverses the order. */
  sortSweep(key: SweepSortKey): void;
}

export const createSweepSlice: StateCreator<StudioState, [], [], SweepSlice> = (set) => ({
  sweepSort: { key: 'index', descending: false },
  sweepFilter: NO_FILTER,
  sweepZoom: undefined,
  sweepShown: false,
  closeSweepBefore: () => set((s) => ({ sweepBefore: undefined, sweepFilter: { ...s.sweepFilter, changedOnly: false } })),
  showSweep: (sweepShown) => set((s) => ({ sweepShown: sweepShown && s.sweep !== undefined })),
  setSweepFilter: (filter) => set((s) => ({ sweepFilter: { ...s.sweepFilter, ...filter } })),
  zoomSweep: (sweepZoom) => set({ sweepZoom }),
  closeSweep: () => set({ sweep: undefined, sweepBefore: undefined, sweepShown: false }),
  sortSweep: (key) => set((s) => ({ sweepSort: { key, descending: s.sweepSort.key === key ? !s.sweepSort.descending : key !== 'index' && key !== 'correlation' } })),
});
