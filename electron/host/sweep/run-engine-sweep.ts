import type { Sampling } from '../../common/api/primitives.js';
import { caseFromReport } from '../../common/sweep/case-from-report.js';
import type { PlannedCase } from '../../common/sweep/plan.js';
import type { SweepCase } from '../../common/sweep/sweep-case.js';
import { runWorkerTask } from '../tasks/worker-tasks.js';
import type { WorkerOptions } from '../tasks/run-task.js';
import { WorkerSupervisor } from '../worker-supervisor.js';
import { engineWorkerUrl } from '../worker-url.js';
import { runCases } from './run-cases.js';

export interface EngineSweepOptions {
  /** The bundle folder; the demo bundle when absent. */
  bundleDir?: string;
  profileA: string;
  profileB: string;
  sampling: Sampling;
  /** Engine workers (child processes) run at once, each with its own engine. */
  jobs: number;
  signal?: AbortSignal;
  onCase: (c: SweepCase) => void;
  /** For tests: another build of the worker. */
  workerUrl?: URL;
}

/**
 * Runs each case's comparison (the `compare` task the studio runs) in one of `jobs` engine workers.
 * A case the engine fails on (kind `engine` or `input`, e.g. a worker that crashed) is recorded as an
 * error line and its worker replaced; a bundle or profile error stops the sweep.
 */
export async function runEngineSweep(cases: PlannedCase[], options: EngineSweepOptions): Promise<void> {
  const workerData: WorkerOptions = { bundleDir: options.bundleDir };
  const url = options.workerUrl ?? engineWorkerUrl();
  const workers = Array.from(
    { length: Math.max(1, Math.min(options.jobs, cases.length)) },
    () => new WorkerSupervisor({ url, workerData, hangTimeoutMs: 60_000, resourceLimits: { maxOldGenerationSizeMb: 3072 } }),
  );
  // An idle worker is unref'd by its supervisor; ref it while it is stopped, or the process could find
  // nothing left to wait on and exit (status 13, an unsettled top-level await) before the kill completes.
  const stopAll = () =>
    Promise.all(
      workers.map((w) => {
        w.current?.ref();
        return w.dispose();
      }),
    );
  const onAbort = () => void stopAll();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await runCases(
      cases.map((c) => ({ index: c.index, id: c.id, seed: c.seed, text: c.text, key: c.key })),
      async (task, w) => {
        const started = performance.now();
        const request = { text: task.text, profileA: options.profileA, profileB: options.profileB, seed: task.seed, sampling: options.sampling };
        const result = await runWorkerTask(workers[w], `sweep-${task.index}`, `case ${task.key}`, { kind: 'compare', request });
        return caseFromReport(task, result.report, performance.now() - started);
      },
      { concurrency: workers.length, perCaseKinds: ['engine', 'input'], signal: options.signal, onCase: options.onCase },
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await stopAll();
  }
}
