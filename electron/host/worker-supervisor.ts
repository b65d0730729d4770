import type { ResourceLimits } from 'node:worker_threads';
import { CancelledError, errorFromPayload, ParityError } from '../common/errors.js';
import type { JobProgress } from '../common/api/jobs.js';
import { openChannel, type EngineChannel, type IsolationMode } from './worker-channel.js';
import { parseFromWorker, type ToWorker } from './worker-protocol.js';

export interface SupervisorOptions {
  /** Built JavaScript entry of the worker (Node 20 cannot start a .ts worker). */
  url: URL;
  /** A child process (default; safe to kill inside native code) or a worker thread. */
  isolation?: IsolationMode;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
  /** No message for this long while a task runs means the worker hangs: it is stopped and replaced. */
  hangTimeoutMs?: number;
  /**
   * A new worker's first message may take this long (its start-up: Node, the engine's imports, a loaded
   * machine) before it counts as hung; default the larger of 60 s and hangTimeoutMs.
   */
  startTimeoutMs?: number;
  /** After a cancel, the worker has this long to stop on its own before it is stopped. */
  cancelGraceMs?: number;
  onRestart?: (reason: string) => void;
}

/** How the caller follows and stops one task: the job's one cancellation is its `signal`. */
export interface RunControl {
  onProgress?: (p: JobProgress) => void;
  /** Aborting it cancels the task: at once while queued, at its next step while running. */
  signal?: AbortSignal;
  /** Buffers moved to the worker rather than copied. */
  transfer?: ArrayBuffer[];
}

interface Task {
  jobId: string;
  what: string;
  task: unknown;
  control: RunControl;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  cancelTimer?: NodeJS.Timeout;
  stopListening: () => void;
}

/**
 * Runs tasks one at a time in an engine worker (a child process by default, a worker thread with
 * isolation 'thread') and keeps a worker available: a crash, an out-of-memory or a hang fails only
 * the running task, with an error that says which, and a new worker is started.
 */
export class WorkerSupervisor {
  private worker?: EngineChannel;
  private running?: Task;
  private readonly queue: Task[] = [];
  private lastSeen = Date.now();
  private readonly monitor: NodeJS.Timeout;
  private disposed = false;
  /** Whether the current worker has sent anything: one that dies before that is not restarted eagerly. */
  private spoke = false;
  /** Workers started so far (1 after the first start); tests and diagnostics read it. */
  generation = 0;

  constructor(private readonly options: SupervisorOptions) {
    const hang = options.hangTimeoutMs ?? 30_000;
    const startUp = options.startTimeoutMs ?? Math.max(60_000, hang);
    this.monitor = setInterval(() => this.checkHang(hang, startUp), Math.max(50, Math.min(1000, hang / 4)));
    this.monitor.unref();
  }

  /** The live worker, if any (tests use it to kill the worker from outside). */
  get current(): EngineChannel | undefined {
    return this.worker;
  }

  /** Queues the task; `control.signal` cancels it (see `cancel`). */
  run(jobId: string, what: string, task: unknown, control: RunControl = {}): Promise<unknown> {
    if (this.disposed) return Promise.reject(new ParityError('engine', 'the studio host is shut down'));
    const { signal } = control;
    if (signal?.aborted) return Promise.reject(new CancelledError(`${jobId} cancelled before it started`));
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel(entry);
      const entry: Task = { jobId, what, task, control, resolve, reject, stopListening: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.pump();
    });
  }

  /** A queued task fails at once; a running one stops at its next step, or the worker is replaced. */
  private cancel(task: Task): void {
    const index = this.queue.indexOf(task);
    if (index >= 0) {
      this.queue.splice(index, 1);
      task.stopListening();
      task.reject(new CancelledError(`${task.jobId} cancelled before it started`));
      return;
    }
    if (this.running !== task) return;
    const { jobId } = task;
    this.post({ type: 'cancel', jobId });
    task.cancelTimer ??= setTimeout(() => {
      // The user asked for the stop: the task says cancelled, and no "engine restarted" alarm goes out.
      if (this.running === task) this.replace(`did not stop within ${this.options.cancelGraceMs ?? 3000} ms of a cancel`, new CancelledError(`${jobId} cancelled (the engine worker was stopped)`), false);
    }, this.options.cancelGraceMs ?? 3000);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearInterval(this.monitor);
    const shutDown = new ParityError('engine', 'the studio host is shut down');
    for (const task of this.queue.splice(0)) {
      task.stopListening();
      task.reject(shutDown);
    }
    if (this.running) {
      const task = this.running;
      this.finish(task);
      task.reject(shutDown);
    }
    const worker = this.worker;
    this.worker = undefined;
    await worker?.kill();
  }

  private pump(): void {
    if (this.running || this.disposed) return;
    const task = this.queue.shift();
    if (!task) {
      this.worker?.unref();
      return;
    }
    const worker = this.ensureWorker();
    worker.ref();
    this.running = task;
    this.lastSeen = Date.now();
    this.post({ type: 'run', jobId: task.jobId, task: task.task }, task.control.transfer);
  }

  private ensureWorker(): EngineChannel {
    if (this.worker) return this.worker;
    const worker = openChannel(this.options.isolation ?? 'process', {
      url: this.options.url,
      workerData: this.options.workerData,
      resourceLimits: this.options.resourceLimits,
    });
    this.generation++;
    this.worker = worker;
    this.spoke = false;
    worker.onMessage((msg) => this.onMessage(worker, msg));
    worker.onExit((reason) => {
      if (this.worker !== worker) return; // replaced on purpose
      this.worker = undefined;
      this.onDeath(reason);
    });
    return worker;
  }

  private onMessage(worker: EngineChannel, raw: unknown): void {
    if (worker !== this.worker) return;
    this.spoke = true;
    this.lastSeen = Date.now();
    const parsed = parseFromWorker(raw);
    if (!parsed.ok) {
      // A worker that breaks the protocol is in an unknown state: it is not trusted with the next task.
      this.replace(`sent a malformed message (${parsed.problem})`);
      return;
    }
    const msg = parsed.message;
    const task = this.running;
    if (msg.type === 'alive' || !task || msg.jobId !== task.jobId) return;
    if (msg.type === 'progress') {
      task.control.onProgress?.(msg.progress);
      return;
    }
    this.finish(task);
    if (msg.type === 'done') task.resolve(msg.result);
    else task.reject(errorFromPayload(msg.error));
    this.pump();
  }

  private finish(task: Task): void {
    clearTimeout(task.cancelTimer);
    task.stopListening();
    this.running = undefined;
  }

  /** A worker that has spoken is hung after `hangMs` of silence; one still starting up, after `startUpMs`. */
  private checkHang(hangMs: number, startUpMs: number): void {
    if (!this.running || !this.worker) return;
    const silent = Date.now() - this.lastSeen;
    const seconds = (silent / 1000).toFixed(1);
    if (this.spoke && silent > hangMs) this.replace(`stopped responding (no message for ${seconds} s)`);
    else if (!this.spoke && silent > startUpMs) this.replace(`did not start (no message ${seconds} s after it was started)`);
  }

  /** Stops the current worker on purpose (hang, ignored cancel) and fails its task. */
  private replace(reason: string, error?: Error, announce = true): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.kill();
    this.onDeath(reason, error, announce);
  }

  private onDeath(reason: string, error?: Error, announce = true): void {
    const task = this.running;
    if (task) {
      this.finish(task);
      task.reject(error ?? new ParityError('engine', `the engine worker ${reason} during ${task.what} (${task.jobId}); a new worker was started, try again`));
    }
    if (this.disposed) return;
    if (announce) this.options.onRestart?.(`engine worker ${reason}`);
    // Start the replacement now so the next call does not wait for it, unless this one never came up
    // (a broken build would otherwise restart forever); then the next task starts it.
    if (this.spoke) this.ensureWorker().unref();
    this.pump();
  }

  private post(msg: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker?.post(msg, transfer);
  }
}
