import type { StateCreator } from 'zustand/vanilla';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import { SweepSummary, type SummaryCase } from '../../../../electron/common/sweep/sweep-summary.js';
import type { StudioState } from '../studio-store.js';

/** Columns the case table sorts by. */
export type SweepSortKey = 'index' | 'verdict' | 'firstStep' | 'correlation' | 'loudnessDeltaLU' | 'mcdDb';

export interface SweepSlice {
  /** A merged sweep (sweep.json) opened in the studio, with the name of its file. */
  sweep?: { name: string; summary: SweepSummary };
  sweepSort: { key: SweepSortKey; descending: boolean };
  /** Reads a sweep.json the user picked (its bytes: the page names no path); a bad file is a notice. */
  openSweep(name: string, bytes: Uint8Array): void;
  closeSweep(): void;
  /** Sorts by `key`; the same key again reverses the order. */
  sortSweep(key: SweepSortKey): void;
  /**
   * Opens one case's comparison: a profile sweep's case is synthesized again with its prompt, seed,
   * profiles and sampling (the form takes them, so what runs is on screen); a trace sweep's case has
   * nothing to synthesize, so a notice says to import its two traces.
   */
  openSweepCase(c: SummaryCase): Promise<void>;
}

export const createSweepSlice: StateCreator<StudioState, [], [], SweepSlice> = (set, get) => ({
  sweepSort: { key: 'index', descending: false },
  openSweep(name, bytes) {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      get().notify('error', `${name}: not JSON`, 'Open the sweep.json that parity sweep merge wrote.');
      return;
    }
    const parsed = SweepSummary.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      get().notify('error', `${name}: not a sweep summary (${issue.path.map(String).join('.') || 'top level'}: ${issue.message})`, 'Open the sweep.json that parity sweep merge wrote.');
      return;
    }
    set({ sweep: { name, summary: parsed.data }, sweepSort: { key: 'index', descending: false } });
  },
  closeSweep: () => set({ sweep: undefined }),
  sortSweep: (key) => set((s) => ({ sweepSort: { key, descending: s.sweepSort.key === key ? !s.sweepSort.descending : key !== 'index' && key !== 'correlation' } })),
  async openSweepCase(c) {
    const summary = get().sweep?.summary;
    if (!summary) return;
    if (summary.mode !== 'profiles' || c.text === undefined || c.seed === null) {
      get().notify('info', `${c.id}: a trace sweep's case is not synthesized here`, `Import ${c.id}.jsonl from ${summary.a} and from ${summary.b} (and their WAVs) to see it.`);
      return;
    }
    get().setForm({ text: c.text, profileA: summary.a, profileB: summary.b, seed: c.seed, sampling: summary.sampling ?? Sampling.parse({}) });
    await get().start();
  },
});
