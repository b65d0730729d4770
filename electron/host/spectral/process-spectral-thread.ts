import type { SpectralRunner } from '../../common/analysis/compare.js';
import { SpectralThread } from './spectral-thread.js';

let thread: SpectralThread | undefined;

/**
 * This process's warm spectral worker (started by its first comparison, kept for the next ones; an idle
 * one does not keep the process alive), as CompareOptions.spectral.
 */
export function processSpectralRunner(): SpectralRunner {
  thread ??= new SpectralThread();
  return thread.run;
}
