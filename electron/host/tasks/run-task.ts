import type { CompareRequest, JobProgress, SynthesizeRequest } from '../../common/api/index.js';
import { InputError } from '../../common/errors.js';
import { compareWavBytes, type CompareWavBytesTask } from './compare-wav-bytes.js';
import type { CompareTraceTextsTask } from './compare-trace-texts.js';
import type { DrillTask } from './drill-task.js';

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

export type WorkerTask =
  | CompareWavBytesTask
  | { kind: 'info' }
  | { kind: 'synthesize'; request: SynthesizeRequest }
  | { kind: 'compare'; request: CompareRequest }
  | CompareTraceTextsTask
  | DrillTask;

/**
 * Dispatches one task inside the worker. Engine modules load on first use, so WAV and trace work
 * goes on even where the engine cannot load.
 */
export async function runTask(context: WorkerContext, raw: unknown, control: TaskControl): Promise<unknown> {
  const task = raw as WorkerTask;
  const bundle = context.options.bundleDir;
  switch (task?.kind) {
    case 'compare-wavs':
      return compareWavBytes(task);
    case 'compare-traces':
      return (await import('./compare-trace-texts.js')).compareTraceTexts(task);
    case 'info':
      return (await import('./engine-tasks.js')).bundleInfoTask(bundle, control);
    case 'synthesize':
      return (await import('./engine-tasks.js')).synthesizeTask(bundle, task.request, control);
    case 'compare':
      return (await import('./engine-tasks.js')).compareTask(bundle, task.request, control);
    case 'drill':
      return (await import('./drill-task.js')).drillTask(bundle, task, control);
    default:
      throw new InputError(`engine worker: unknown task kind "${String((raw as { kind?: unknown })?.kind)}"`);
  }
}
