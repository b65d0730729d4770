import type { StudioState } from '../studio-store.js';

export const viewSelectors = {
  layout: (s: StudioState) => s.layout,
  spectrogram: (s: StudioState) => s.spectrogram,
  codesTall: (s: StudioState) => s.codesTall,
  viewport: (s: StudioState) => s.viewport,
  viewportStart: (s: StudioState) => s.viewport.start,
  /** Seconds in view. */
  viewSpan: (s: StudioState) => s.viewport.end - s.viewport.start,
  laneWidth: (s: StudioState) => s.laneWidth,
  hover: (s: StudioState) => s.hover,
  diffAligned: (s: StudioState) => s.diffAligned,
  ampGain: (s: StudioState) => s.ampGain,
  ampDb: (s: StudioState) => s.ampDb,
  tolerances: (s: StudioState) => s.tolerances,
  tab: (s: StudioState) => s.tab,
  shortcutsOpen: (s: StudioState) => s.shortcutsOpen,
  sidebarOpen: (s: StudioState) => s.sidebarOpen,
};
