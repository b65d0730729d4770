import { InputError } from '../common/errors.js';

export type JobKind = 'synthesis' | 'comparison' | 'drill-down';

interface Job {
  kind: JobKind;
  result: Promise<unknown>;
  /** The job's one cancellation: the supervisor, the host's own steps and every transport go through it. */
  controller: AbortController;
  settled: boolean;
}

/**
 * Started jobs and their results, until the result is collected. Only finished jobs are trimmed (the
 * oldest first, past `keep` of them); a trimmed job's id is remembered, so asking for it says what
 * happened rather than "unknown".
 */
export class JobTable {
  private readonly jobs = new Map<string, Job>();
  private readonly trimmed = new Set<string>();
  private next = 1;

  constructor(private readonly keep = 50) {}

  /** Starts `work` as a new job; it is handed the job's id and its cancellation signal. */
  start(kind: JobKind, work: (jobId: string, signal: AbortSignal) => Promise<unknown>): string {
    const jobId = `job-${this.next++}`;
    const controller = new AbortController();
    const result = work(jobId, controller.signal);
    const job: Job = { kind, result, controller, settled: false };
    const settle = () => {
      job.settled = true;
      this.trim();
    };
    result.then(settle, settle); // failures are delivered by `take`, not as unhandled rejections
    this.jobs.set(jobId, job);
    return jobId;
  }

  has(jobId: string): boolean {
    return this.jobs.has(jobId);
  }

  /** True when the job was still running (it now stops); false for a finished or unknown job. */
  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!job || job.settled) return false;
    job.controller.abort();
    return true;
  }

  /** Waits for the job and hands over its result once; a second call is refused. */
  async take(jobId: string, kind: JobKind): Promise<unknown> {
    const job = this.jobs.get(jobId);
    if (!job) {
      if (this.trimmed.has(jobId)) throw new InputError(`the result of ${kind} job "${jobId}" was dropped: it finished and was not collected before ${this.keep} newer jobs finished`, jobId);
      throw new InputError(`no ${kind} job "${jobId}" (unknown, or its result was already collected)`, jobId);
    }
    if (job.kind !== kind) throw new InputError(`job "${jobId}" is a ${job.kind}, not a ${kind}`, jobId);
    try {
      return await job.result;
    } finally {
      this.jobs.delete(jobId);
    }
  }

  private trim(): void {
    const finished = [...this.jobs].filter(([, job]) => job.settled);
    for (const [jobId] of finished.slice(0, Math.max(0, finished.length - this.keep))) {
      this.jobs.delete(jobId);
      this.trimmed.add(jobId);
    }
    // The ids themselves are kept within a bound too: the oldest are forgotten first.
    for (const jobId of [...this.trimmed].slice(0, Math.max(0, this.trimmed.size - 10 * this.keep))) this.trimmed.delete(jobId);
  }
}
