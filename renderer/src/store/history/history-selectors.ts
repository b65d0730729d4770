import type { StudioState } from '../studio-store.js';

export const historySelectors = {
  entries: (s: StudioState) => s.history,
  busy: (s: StudioState) => s.busy,
  lastExport: (s: StudioState) => s.lastExport,
  pendingOverwrite: (s: StudioState) => s.pendingOverwrite,
  pendingDelete: (s: StudioState) => s.pendingDelete,
  status: (s: StudioState) => s.historyStatus,
  /** True when the comparison on screen is an import whose files the host kept (`HistoryEntry.swappable`). */
  canSwap: (s: StudioState) => s.comparison !== undefined && s.history.some((e) => e.id === s.comparison?.historyId && e.swappable === true),
};
