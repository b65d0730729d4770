import type { StateCreator } from 'zustand/vanilla';
import type { StudioState } from '../studio-store.js';

/** An error or a confirmation shown until dismissed: what happened and what to do about it. */
export interface Notice {
  id: number;
  kind: 'error' | 'info';
  message: string;
  /** What the user can do, e.g. "Choose two WAV files". */
  hint?: string;
}

export interface NoticesSlice {
  notices: Notice[];
  notify(kind: Notice['kind'], message: string, hint?: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const createNoticesSlice: StateCreator<StudioState, [], [], NoticesSlice> = (set) => ({
  notices: [],
  notify: (kind, message, hint) => set((s) => ({ notices: [...s.notices.slice(-4), { id: nextId++, kind, message, hint }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});

export const noticesSelectors = {
  notices: (s: StudioState) => s.notices,
};
