import { InputError } from '../common/errors.js';

export type JobKind = 'synthesis' | 'comparison' | 'drill-down';

interface Job {
  kind: JobKind;
  result: Promise<unknown>;
}

/** Started jobs and their results, until the result is collected (or the table trims old ones). */
export class JobTable {
  private readonly jobs = new Map<string, Job>();
  private next = 1;

  constructor(private readonly keep = 50) {}

  newId(): string {
    return `job-${this.next++}`;
  }

  add(jobId: string, kind: JobKind, result: Promise<unknown>): void {
    result.catch(() => undefined); // failures are delivered by `take`, not as unhandled rejections
    this.jobs.set(jobId, { kind, result });
    while (this.jobs.size > this.keep) this.jobs.delete(this.jobs.keys().next().value as string);
  }

  has(jobId: string): boolean {
    return this.jobs.has(jobId);
  }

  /** Waits for the job and hands over its result once; a second call is refused. */
  async take(jobId: string, kind: JobKind): Promise<unknown> {
    const job = this.jobs.get(jobId);
    if (!job) throw new InputError(`no ${kind} job "${jobId}" (unknown, or its result was already collected)`, jobId);
    if (job.kind !== kind) throw new InputError(`job "${jobId}" is a ${job.kind}, not a ${kind}`, jobId);
    try {
      return await job.result;
    } finally {
      this.jobs.delete(jobId);
    }
  }
}
