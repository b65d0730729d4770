import type { StateCreator } from 'zustand/vanilla';
import type { StudioState } from '../studio-store.js';

export type Layout = 'overlay' | 'stacked';
export type DetailTab = 'metrics' | 'steps' | 'codes' | 'numerics' | 'abx';

export interface ViewSlice {
  layout: Layout;
  spectrogram: boolean;
  /** Pixels per second of the shared timeline; 0 fits the whole take in the view. */
  zoom: number;
  /** Visible window of the shared timeline, seconds (from the scrolled track). */
  visible: { start: number; end: number };
  tab: DetailTab;
  shortcutsOpen: boolean;
  setLayout(layout: Layout): void;
  toggleSpectrogram(): void;
  setZoom(pxPerSec: number): void;
  setVisible(start: number, end: number): void;
  setTab(tab: DetailTab): void;
  setShortcutsOpen(open: boolean): void;
}

export const MAX_ZOOM = 4000;

export const createViewSlice: StateCreator<StudioState, [], [], ViewSlice> = (set) => ({
  layout: 'overlay',
  spectrogram: false,
  zoom: 0,
  visible: { start: 0, end: 0 },
  tab: 'metrics',
  shortcutsOpen: false,
  setLayout: (layout) => set({ layout }),
  toggleSpectrogram: () => set((s) => ({ spectrogram: !s.spectrogram })),
  setZoom: (zoom) => set({ zoom: Math.max(0, Math.min(MAX_ZOOM, zoom)) }),
  setVisible: (start, end) => set((s) => (s.visible.start === start && s.visible.end === end ? s : { visible: { start, end } })),
  setTab: (tab) => set({ tab }),
  setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
});

export const viewSelectors = {
  layout: (s: StudioState) => s.layout,
  spectrogram: (s: StudioState) => s.spectrogram,
  zoom: (s: StudioState) => s.zoom,
  visibleStart: (s: StudioState) => s.visible.start,
  visibleEnd: (s: StudioState) => s.visible.end,
  tab: (s: StudioState) => s.tab,
  shortcutsOpen: (s: StudioState) => s.shortcutsOpen,
};
