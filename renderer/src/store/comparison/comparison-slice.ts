import type { StateCreator } from 'zustand/vanilla';
import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { PlayerLike } from '../../audio/player.js';
import type { StudioState } from '../studio-store.js';
import { fitViewport } from '../../lib/viewport.js';
import { timelineDuration } from '../view/timeline.js';
import { audioSelectors } from './audio-selectors.js';

export interface ComparisonSlice {
  /** The comparison on screen: from a synthesis, an import or history. */
  comparison?: ComparisonResult;
  showComparison(result: ComparisonResult): void;
  /** Back to the empty results pane (the entry on screen was deleted): audio stopped, its state dropped. */
  clearComparison(): void;
  /** Gives the player the difference now on screen (aligned or raw), keeping the position and play state. */
  reloadDifference(): void;
}

/** What a newly shown (or cleared) comparison starts from: stopped at 0, no loop, zoom, ABX or export state. */
const VIEW_RESET = {
  position: 0,
  playing: false,
  loop: undefined,
  loopOn: false,
  hover: undefined,
  tolerances: undefined,
  abx: undefined,
  lastExport: undefined,
  pendingOverwrite: undefined,
} as const;

export const createComparisonSlice =
  (player: PlayerLike): StateCreator<StudioState, [], [], ComparisonSlice> =>
  (set, get) => ({
    comparison: undefined,
    showComparison(result) {
      const { a, b } = result;
      // A synthesized comparison carries its settings: show them, so "Synthesize" re-runs it.
      const rerun = (result.report as { rerun?: { text: string; profileA: string; profileB: string; seed: number; sampling: StudioState['form']['sampling'] } }).rerun;
      if (rerun) set((s) => ({ form: { ...s.form, text: rerun.text, profileA: rerun.profileA, profileB: rerun.profileB, seed: rerun.seed, sampling: rerun.sampling } }));
      const sampleRate = a?.sampleRate ?? b?.sampleRate;
      // A comparison without audio (traces only) must not leave the previous one's takes playable.
      if (sampleRate) player.load({ sampleRate, a: a?.samples, b: b?.samples, d: audioSelectors.difference({ ...get(), comparison: result }).samples });
      else player.unload();
      player.setLoop(null);
      set((s) => ({
        ...VIEW_RESET,
        comparison: result,
        viewport: fitViewport(timelineDuration({ ...s, comparison: result })),
      }));
    },
    clearComparison() {
      const id = get().comparison?.historyId;
      if (id === undefined) return;
      player.unload();
      player.setLoop(null);
      if (get().drill?.historyId === id) void get().cancelDrill();
      set({ ...VIEW_RESET, comparison: undefined, viewport: { start: 0, end: 0 } });
    },
    reloadDifference() {
      const s = get();
      const c = s.comparison;
      const sampleRate = c?.a?.sampleRate ?? c?.b?.sampleRate;
      if (!c || !sampleRate) return;
      const wasPlaying = s.playing;
      player.load({ sampleRate, a: c.a?.samples, b: c.b?.samples, d: audioSelectors.difference(s).samples });
      set({ playing: false });
      // Loading stops the takes: play on from the same position.
      if (wasPlaying) void get().togglePlay();
    },
  });
