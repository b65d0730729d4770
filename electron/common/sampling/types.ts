/**
 * Sampling settings shared by both profiles of a comparison. Greedy is the default; random draws come
 * from a counter-based generator keyed by (seed, step, codebook) so two profiles draw the same numbers
 * at the same step whatever else they do.
 */
export interface SamplingParams {
  /** 'greedy' takes the argmax; 'sample' draws after temperature, top-k, top-p. */
  mode: 'greedy' | 'sample';
  temperature: number;
  /** 0 = no top-k filter. */
  topK: number;
  /** 1 = no nucleus filter. */
  topP: number;
  /** 1 = none; > 1 penalises codes already emitted in this codebook (CTRL-style). */
  repetitionPenalty: number;
}

export const GREEDY: SamplingParams = { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 };
