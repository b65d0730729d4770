import { CancelledError } from '../../common/errors.js';

/**
 * What a drill-down is doing, for a progress line: re-running one side up to the drilled step,
 * promoting a network's node outputs and opening it, or comparing one recorded run of the step.
 */
export interface DrillProgress {
  part: 'record' | 'promote' | 'compare';
  /** The side being re-run (part 'record'). */
  side?: 'A' | 'B';
  /** record: the talker step reached, of the step drilled (of all frames for the vocoder); compare: run k of n (from 1). */
  step: number;
  totalSteps: number;
  /** Overall fraction done, 0..1: side A's re-run is the first 40 %, B's the next 40 %, promoting and comparing the rest. */
  fraction: number;
  /** The same in words, e.g. "re-running side A (graph) up to step 8: step 3 of 8". */
  message: string;
}

export interface DrillControl {
  /** Checked between steps of the re-runs, and before each promoted network and each run compared. */
  signal?: AbortSignal;
  onProgress?: (p: DrillProgress) => void;
}

/** Throws a CancelledError when the drill was cancelled (whatever reason the signal carries). */
export function stopIfCancelled(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted) throw new CancelledError(`drill-down cancelled ${where}`);
}
