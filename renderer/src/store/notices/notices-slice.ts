import type { StateCreator } from 'zustand/vanilla';
import type { StudioState } from '../studio-store.js';

/** An error or a confirmation shown until dismissed: what happened and what to do about it. */
export interface Notice {
  id: number;
  kind: 'error' | 'info';
  message: string;
  /** What the user can do, e.g. "Choose two WAV files". */
  hint?: string;
  /**
   * Kept when a new action starts: a state the user must still fix outside the studio (the model
   * bundle could not be opened). Every other notice is about the previous action and goes with it.
   */
  sticky?: boolean;
}

export interface NoticesSlice {
  notices: Notice[];
  notify(kind: Notice['kind'], message: string, hint?: string, options?: { sticky?: boolean }): void;
  dismiss(id: number): void;
  /** A new action (synthesis, import, opening history) starts: notices about the previous one go. */
  clearActionNotices(): void;
}

let nextId = 1;

export const createNoticesSlice: StateCreator<StudioState, [], [], NoticesSlice> = (set) => ({
  notices: [],
  notify: (kind, message, hint, options) =>
    set((s) => ({ notices: [...s.notices.slice(-4), { id: nextId++, kind, message, hint, ...(options?.sticky ? { sticky: true } : {}) }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  clearActionNotices: () => set((s) => (s.notices.some((n) => !n.sticky) ? { notices: s.notices.filter((n) => n.sticky) } : {})),
});
