import { ParityError } from '../../common/errors.js';
import { caseFromError, type CaseIdentity } from '../../common/sweep/case-from-report.js';
import type { SweepCase } from '../../common/sweep/sweep-case.js';

/** One case to run, with the key a shard file knows it by. */
export interface SweepTask extends CaseIdentity {
  key: string;
}

export interface RunCasesOptions {
  /** Cases run at once (one per engine worker). */
  concurrency: number;
  /** Error kinds recorded as an `error` line for the case; any other error stops the sweep. */
  perCaseKinds: readonly string[];
  signal?: AbortSignal;
  /** Called with each finished line, in the order the cases finish. */
  onCase: (c: SweepCase) => void;
}

/**
 * Runs `runOne` over the cases, at most `concurrency` at a time. A case whose error is of a per-case
 * kind (e.g. one unreadable trace among a thousand) becomes an `error` line; anything else (a bundle that
 * does not open, a bug) stops the sweep after the cases in flight, and is thrown.
 */
export async function runCases<T extends SweepTask>(tasks: T[], runOne: (task: T, worker: number) => Promise<SweepCase>, options: RunCasesOptions): Promise<void> {
  let next = 0;
  let stop: unknown;
  const worker = async (w: number) => {
    while (stop === undefined && next < tasks.length && !options.signal?.aborted) {
      const task = tasks[next++];
      const started = performance.now();
      try {
        options.onCase(await runOne(task, w));
      } catch (error) {
        if (error instanceof ParityError && options.perCaseKinds.includes(error.kind)) {
          options.onCase(caseFromError(task, error.message, performance.now() - started));
        } else stop ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, tasks.length)) }, (_, w) => worker(w)));
  if (stop !== undefined) throw stop;
}
