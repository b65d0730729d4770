import type { StateCreator } from 'zustand/vanilla';
import { centredOn, clampViewport, fitViewport, panBy, zoomAt, type Viewport } from '../../lib/viewport.js';
import type { StudioState } from '../studio-store.js';
import type { UiTolerances } from '../tolerance/judgement.js';
import { timelineSelectors } from './timeline-selectors.js';

export type Layout = 'overlay' | 'stacked';
export type DetailTab = 'metrics' | 'steps' | 'codes' | 'numerics' | 'abx';

/** What the pointer is over: a time on the shared timeline, the lane, and the height there (0 top … 1 bottom). */
export interface Hover {
  time: number;
  lane: string;
  y: number;
}

export interface ViewSlice {
  layout: Layout;
  spectrogram: boolean;
  /** The codes lane at twice its height per codebook (the user's choice; the results pane scrolls). */
  codesTall: boolean;
  /** The window of the shared timeline every lane draws, seconds. */
  viewport: Viewport;
  /** Width in px of the lanes' drawing area (the same for every lane). */
  laneWidth: number;
  hover?: Hover;
  /** Vertical zoom of the waveform lanes (1 = full scale fills the lane). */
  ampGain: number;
  /** Waveform amplitude on a dB scale (−60..0 dBFS) instead of linear. */
  ampDb: boolean;
  /** The difference lane and D playback: B aligned by the measured lag and gain (true), or raw A − B at lag 0. */
  diffAligned: boolean;
  /** Tolerances set in the studio (the verdict is judged again under them); undefined: the report's own. */
  tolerances?: UiTolerances;
  tab: DetailTab;
  shortcutsOpen: boolean;
  /** The settings panel (form, import, history, sweep) beside the results; closed, the results take the width. */
  sidebarOpen: boolean;
  toggleSidebar(): void;
  setTolerances(tol: UiTolerances | undefined): void;
  setLayout(layout: Layout): void;
  toggleSpectrogram(): void;
  toggleCodesTall(): void;
  setViewport(vp: Viewport): void;
  /** factor > 1 zooms in, about `anchor` (seconds; default the window's centre). */
  zoomBy(factor: number, anchor?: number): void;
  /** Pixels per second (0 fits the whole take), about the window's centre. */
  setZoom(pxPerSec: number): void;
  /** Scroll by a fraction of the window's width (negative: earlier). */
  scrollBy(fraction: number): void;
  fit(): void;
  /** Shows `span` seconds around `time`. */
  showAround(time: number, span: number): void;
  setLaneWidth(px: number): void;
  setHover(hover: Hover | undefined): void;
  setAmpGain(gain: number): void;
  toggleAmpDb(): void;
  toggleDiffAligned(): void;
  setTab(tab: DetailTab): void;
  setShortcutsOpen(open: boolean): void;
}

export const createViewSlice: StateCreator<StudioState, [], [], ViewSlice> = (set, get) => {
  const apply = (vp: Viewport) => {
    const next = clampViewport(vp, timelineSelectors.duration(get()), timelineSelectors.minSpan(get()));
    const now = get().viewport;
    if (next.start !== now.start || next.end !== now.end) set({ viewport: next });
  };
  return {
    layout: 'overlay',
    spectrogram: false,
    codesTall: false,
    viewport: { start: 0, end: 0 },
    laneWidth: 1000,
    hover: undefined,
    diffAligned: true,
    tolerances: undefined,
    tab: 'metrics',
    shortcutsOpen: false,
    sidebarOpen: true,
    toggleSidebar: () => set((s) => ({ sidebarOpen: !s.sidebarOpen })),
    setTolerances: (tolerances) => set({ tolerances }),
    setLayout: (layout) => set({ layout }),
    toggleSpectrogram: () => set((s) => ({ spectrogram: !s.spectrogram })),
    toggleCodesTall: () => set((s) => ({ codesTall: !s.codesTall })),
    setViewport: apply,
    zoomBy(factor, anchor) {
      const vp = get().viewport;
      apply(zoomAt(vp, factor, anchor ?? (vp.start + vp.end) / 2, timelineSelectors.duration(get()), timelineSelectors.minSpan(get())));
    },
    setZoom(pxPerSec) {
      const s = get();
      if (!(pxPerSec > 0)) return apply(fitViewport(timelineSelectors.duration(s)));
      const vp = s.viewport;
      apply(centredOn((vp.start + vp.end) / 2, s.laneWidth / pxPerSec, timelineSelectors.duration(s), timelineSelectors.minSpan(s)));
    },
    scrollBy(fraction) {
      const vp = get().viewport;
      apply(panBy(vp, fraction * (vp.end - vp.start), timelineSelectors.duration(get()), timelineSelectors.minSpan(get())));
    },
    fit: () => apply(fitViewport(timelineSelectors.duration(get()))),
    showAround: (time, span) => apply(centredOn(time, span, timelineSelectors.duration(get()), timelineSelectors.minSpan(get()))),
    setLaneWidth: (laneWidth) => {
      if (laneWidth > 0 && laneWidth !== get().laneWidth) set({ laneWidth });
    },
    setHover: (hover) => set({ hover }),
    ampGain: 1,
    ampDb: false,
    setAmpGain: (gain) => set({ ampGain: Math.min(1000, Math.max(1, gain)) }),
    toggleAmpDb: () => set((s) => ({ ampDb: !s.ampDb })),
    toggleDiffAligned: () => {
      set((s) => ({ diffAligned: !s.diffAligned }));
      get().reloadDifference();
    },
    setTab: (tab) => set({ tab }),
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
  };
};
