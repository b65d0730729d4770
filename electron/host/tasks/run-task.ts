import type { JobProgress } from '../../common/api/jobs.js';
import { InputError } from '../../common/errors.js';
import { compareWavBytes, type CompareWavBytesTask } from './compare-wav-bytes.js';

export interface WorkerOptions {
  /** The model bundle folder; the demo bundle when absent. */
  bundleDir?: string;
}

export interface WorkerContext {
  options: WorkerOptions;
}

export interface TaskControl {
  signal: AbortSignal;
  onProgress: (p: JobProgress) => void;
}

export type WorkerTask = CompareWavBytesTask;

/** Dispatches one task inside the worker. */
export async function runTask(_context: WorkerContext, task: unknown, _control: TaskControl): Promise<unknown> {
  const kind = (task as { kind?: unknown })?.kind;
  switch (kind) {
    case 'compare-wavs':
      return compareWavBytes(task as CompareWavBytesTask);
    default:
      throw new InputError(`engine worker: unknown task kind "${String(kind)}"`);
  }
}
