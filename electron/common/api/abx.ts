import { z } from 'zod';
import { HistoryId } from './primitives.js';

/** One blind trial: X was `x`, the listener answered `answer`. */
export const AbxTrial = z.object({ x: z.enum(['A', 'B']), answer: z.enum(['A', 'B']) });
export type AbxTrial = z.infer<typeof AbxTrial>;

/**
 * An ABX session kept with a comparison: the seed that drew X for each trial (so the draw can be
 * checked afterwards), the trials, and the one-sided binomial probability of scoring this well by guessing.
 */
export const AbxSession = z.object({
  seed: z.number().int().nonnegative().max(2 ** 32 - 1),
  trials: z.array(AbxTrial).max(1000),
  correct: z.number().int().nonnegative(),
  pGuess: z.number().min(0).max(1),
  savedAt: z.string(),
});
export type AbxSession = z.infer<typeof AbxSession>;

export const SaveAbxRequest = z.object({ id: HistoryId, session: AbxSession });
export type SaveAbxRequest = z.infer<typeof SaveAbxRequest>;
export const AbxSaved = z.object({ saved: z.boolean() });

/** Where browser mode exports a history entry: a folder under the user's data directory. */
export const ExportLocation = z.object({ dir: z.string() });
