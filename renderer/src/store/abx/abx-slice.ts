import type { StateCreator } from 'zustand/vanilla';
import type { AbxTrial } from '../../../../electron/common/api/abx.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { abxTake, binomialPGuess, randomSeed } from '../../lib/abx-stats.js';
import { userErrorText } from '../../lib/user-error.js';
import type { StudioState } from '../studio-store.js';

export interface AbxState {
  seed: number;
  trials: AbxTrial[];
  /** X of the trial being answered. */
  currentX: 'A' | 'B';
  saved: boolean;
}

export interface AbxSlice {
  abx?: AbxState;
  /** New session: a fresh seed from crypto.getRandomValues draws X for every trial. */
  startAbx(seed?: number): void;
  answerAbx(answer: 'A' | 'B'): void;
  saveAbx(): Promise<void>;
}

export const createAbxSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], AbxSlice> =>
  (set, get) => ({
    abx: undefined,
    startAbx(seed = randomSeed()) {
      set({ abx: { seed, trials: [], currentX: abxTake(seed, 0), saved: false } });
      get().selectTake(get().activeTake);
    },
    answerAbx(answer) {
      const abx = get().abx;
      if (!abx) return;
      const trials = [...abx.trials, { x: abx.currentX, answer }];
      set({ abx: { ...abx, trials, currentX: abxTake(abx.seed, trials.length), saved: false } });
      // If X is playing, the new trial's X must be what is heard.
      get().selectTake(get().activeTake);
    },
    async saveAbx() {
      const { abx, comparison } = get();
      if (!abx || !comparison || abx.trials.length === 0) return;
      const correct = abx.trials.filter((t) => t.x === t.answer).length;
      const session = { seed: abx.seed, trials: abx.trials, correct, pGuess: binomialPGuess(correct, abx.trials.length), savedAt: new Date().toISOString() };
      try {
        await studio.saveAbx({ id: comparison.historyId, session });
        set((s) => ({ abx: s.abx && { ...s.abx, saved: true } }));
      } catch (error) {
        get().notify('error', `Could not save the ABX result: ${userErrorText(error)}`, 'Try again; the trials are kept on screen.');
      }
    },
  });
