import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerSupervisor, type SupervisorOptions } from '../../../electron/host/worker-supervisor.js';

const url = new URL('./fixtures/test-worker.mjs', import.meta.url);
let supervisor: WorkerSupervisor | undefined;
const restarts: string[] = [];

let isolation: 'process' | 'thread' = 'process';
function start(options: Partial<SupervisorOptions> = {}) {
  restarts.length = 0;
  // The hang limit is long here (a loaded machine stalls a worker for seconds); the hang tests shorten it.
  supervisor = new WorkerSupervisor({ url, isolation, hangTimeoutMs: 10_000, cancelGraceMs: 500, onRestart: (r) => restarts.push(r), ...options });
  return supervisor;
}
const run = (s: WorkerSupervisor, jobId: string, task: unknown, progress: unknown[] = [], signal?: AbortSignal) =>
  s.run(jobId, 'test task', task, { onProgress: (p) => progress.push(p.step), signal });

/** The task, and a promise that settles when the worker has reported its first step (it is running). */
function runUntilFirstStep(s: WorkerSupervisor, jobId: string, task: unknown, signal?: AbortSignal): [Promise<unknown>, Promise<void>] {
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  return [s.run(jobId, 'test task', task, { onProgress: () => started(), signal }), running];
}

// A process worker's stderr is forwarded to ours (the host's log). The deliberate crashes below print
// stack traces there: keep them out of the test output and assert on them instead.
let workerStderr = '';
beforeEach(() => {
  workerStderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    workerStderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
});

afterEach(async () => {
  await supervisor?.dispose();
  vi.restoreAllMocks();
});

describe.each(['process', 'thread'] as const)('WorkerSupervisor (%s)', (mode) => {
  beforeEach(() => {
    isolation = mode;
  });

  it('runs tasks in the worker and forwards progress', async () => {
    const s = start();
    const progress: unknown[] = [];
    await expect(run(s, 'job-1', { do: 'slow', steps: 3, ms: 5 }, progress)).resolves.toEqual({ steps: 3 });
    expect(progress).toEqual([1, 2, 3]);
  });

  it('survives a crash: the task fails saying so, and the next task runs in a new worker', async () => {
    const s = start();
    await expect(run(s, 'job-1', { do: 'crash' })).rejects.toThrow(/engine worker crashed: boom from the test worker during test task \(job-1\); a new worker was started/);
    // A worker thread's error reaches the supervisor as an event; a process's trace comes on its stderr.
    if (mode === 'process') expect(workerStderr).toContain('Error: boom from the test worker');
    expect(restarts).toHaveLength(1);
    await expect(run(s, 'job-2', { do: 'echo', value: 7 })).resolves.toMatchObject({ echo: 7 });
    expect(s.generation).toBe(2);
  });

  it('survives a hang: a worker silent past the timeout is stopped and replaced', async () => {
    const s = start({ hangTimeoutMs: 800 });
    const t0 = Date.now();
    await expect(run(s, 'job-1', { do: 'hang' })).rejects.toThrow(/stopped responding \(no message for \d+\.\d s\)/);
    expect(Date.now() - t0).toBeLessThan(5000);
    await expect(run(s, 'job-2', { do: 'echo', value: 'ok' })).resolves.toMatchObject({ echo: 'ok' });
  });

  it('gives a worker still starting up its start-up allowance, not the hang limit', async () => {
    const s = start({ hangTimeoutMs: 300, startTimeoutMs: 20_000, workerData: { startUpMs: 1500 } });
    await expect(run(s, 'job-1', { do: 'echo', value: 'late' })).resolves.toMatchObject({ echo: 'late' });
    expect(restarts).toEqual([]);
  });

  it('replaces a worker that never says it is up within the start-up allowance', async () => {
    const s = start({ hangTimeoutMs: 300, startTimeoutMs: 600, workerData: { startUpMs: 60_000 } });
    await expect(run(s, 'job-1', { do: 'echo', value: 1 })).rejects.toThrow(/the engine worker did not start \(no message \d+\.\d s after it was started\) during test task \(job-1\)/);
    expect(restarts).toEqual([expect.stringMatching(/^engine worker did not start/)]);
  });

  it('survives running out of memory under resourceLimits', async () => {
    const s = start({ resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 } });
    await expect(run(s, 'job-1', { do: 'oom' })).rejects.toThrow(/ran out of memory \(limit 24 MB heap\)/);
    if (mode === 'process') expect(workerStderr).toContain('JavaScript heap out of memory');
    await expect(run(s, 'job-2', { do: 'echo', value: 1 })).resolves.toMatchObject({ echo: 1 });
  });

  it('survives being terminated from outside mid-task', async () => {
    const s = start();
    const [pending, running] = runUntilFirstStep(s, 'job-1', { do: 'slow', steps: 100, ms: 20 });
    await running; // mid-task: the worker has reported a step
    await s.current!.kill();
    await expect(pending).rejects.toThrow(/exited with code 1 during test task/);
    await expect(run(s, 'job-2', { do: 'echo', value: 2 })).resolves.toMatchObject({ echo: 2 });
  });

  it('cancels a queued task at once and a running one at its next step, each through its own signal', async () => {
    const s = start();
    const [one, two] = [new AbortController(), new AbortController()];
    const [first, running] = runUntilFirstStep(s, 'job-1', { do: 'slow', steps: 100, ms: 10 }, one.signal);
    const second = run(s, 'job-2', { do: 'echo', value: 0 }, [], two.signal);
    two.abort();
    await expect(second).rejects.toMatchObject({ kind: 'cancelled', message: 'job-2 cancelled before it started' });
    await running; // a fixed wait read "queued" on a loaded machine: the worker had not started yet
    one.abort();
    await expect(first).rejects.toMatchObject({ kind: 'cancelled', message: expect.stringMatching(/cancelled at step/) });
    expect(s.generation).toBe(1);
  });

  it('refuses a task whose signal is already aborted without starting a worker', async () => {
    const s = start();
    const controller = new AbortController();
    controller.abort();
    await expect(run(s, 'job-1', { do: 'echo', value: 1 }, [], controller.signal)).rejects.toMatchObject({ kind: 'cancelled', message: 'job-1 cancelled before it started' });
    expect(s.generation).toBe(0);
  });

  it('a cancel after the worker died changes nothing: the task has already failed, the next one runs', async () => {
    const s = start({ hangTimeoutMs: 10_000 });
    const controller = new AbortController();
    const [pending, running] = runUntilFirstStep(s, 'job-1', { do: 'slow', steps: 100, ms: 20 }, controller.signal);
    await running;
    await s.current!.kill();
    await expect(pending).rejects.toThrow(/during test task \(job-1\)/);
    controller.abort();
    await expect(run(s, 'job-2', { do: 'echo', value: 4 })).resolves.toMatchObject({ echo: 4 });
  });

  it('replaces a worker that sends a malformed message, failing its task with what was wrong', async () => {
    const s = start();
    await expect(run(s, 'job-1', { do: 'malformed' })).rejects.toThrow(
      /the engine worker sent a malformed message \(progress\.fraction: .*\) during test task \(job-1\); a new worker was started/,
    );
    await expect(run(s, 'job-2', { do: 'echo', value: 6 })).resolves.toMatchObject({ echo: 6 });
    expect(s.generation).toBe(2);
  });

  it('stops a worker that ignores a cancel after the grace period', async () => {
    const s = start({ hangTimeoutMs: 10_000 });
    const controller = new AbortController();
    const [pending, running] = runUntilFirstStep(s, 'job-1', { do: 'slow', steps: 1000, ms: 10, ignoreCancel: true }, controller.signal);
    await running;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled', message: expect.stringMatching(/engine worker was stopped/) });
    await expect(run(s, 'job-2', { do: 'echo', value: 3 })).resolves.toMatchObject({ echo: 3 });
    // A stop the user asked for is not announced as an engine restart (the page would show it as an error).
    expect(restarts).toEqual([]);
  });
});

describe('WorkerSupervisor (process isolation)', () => {
  it('survives a native abort in the worker, which a worker thread could not contain', async () => {
    isolation = 'process';
    const s = start();
    await expect(run(s, 'job-1', { do: 'native-abort' })).rejects.toThrow(/engine worker was killed by SIGABRT during test task/);
    expect(workerStderr).toContain('Native stack trace');
    await expect(run(s, 'job-2', { do: 'echo', value: 5 })).resolves.toMatchObject({ echo: 5 });
  });
});
