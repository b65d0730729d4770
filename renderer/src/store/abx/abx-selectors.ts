import { pGuessText } from '../../lib/abx-stats.js';
import type { StudioState } from '../studio-store.js';

export const abxSelectors = {
  active: (s: StudioState) => s.abx !== undefined,
  trials: (s: StudioState) => s.abx?.trials.length ?? 0,
  correct: (s: StudioState) => s.abx?.trials.filter((t) => t.x === t.answer).length ?? 0,
  /** p(guessing) exactly, e.g. "31/32 = 0.96875" for 1 of 5. */
  pText: (s: StudioState) => pGuessText(abxSelectors.correct(s), abxSelectors.trials(s)),
  saved: (s: StudioState) => s.abx?.saved ?? false,
  /** The session stored with the comparison (from history). */
  savedSession: (s: StudioState) => s.comparison?.abx,
};
