import { parentPort, workerData } from 'node:worker_threads';
import { CancelledError, toErrorPayload } from '../common/errors.js';
import type { JobProgress } from '../common/api/jobs.js';
import { runTask, type WorkerContext } from './tasks/run-task.js';
import { HEARTBEAT_MS, transferables, type FromWorker, type ToWorker } from './worker-protocol.js';

/**
 * Entry of the engine worker (built to dist/: Node 20 cannot start a .ts worker), run as a forked
 * child process (process.send) or a worker thread (parentPort). It runs one task at a time, says it is
 * alive every HEARTBEAT_MS, and stops a task at its next step on cancel.
 */
const port = parentPort;
if (!port && !process.send) throw new Error('engine-worker.js must run in a worker thread or a forked process');
const data: unknown = port ? workerData : JSON.parse(process.env.PARITY_WORKER_DATA ?? '{}');

const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => (port ? port.postMessage(msg, transfer) : process.send?.(msg));
// The first beat says the worker is up (the supervisor allows start-up more time than a hang).
send({ type: 'alive' });
const heartbeat = setInterval(() => send({ type: 'alive' }), HEARTBEAT_MS);
if (!port) heartbeat.unref();

const controllers = new Map<string, AbortController>();
const context: WorkerContext = { options: (data ?? {}) as WorkerContext['options'] };
// A forked worker whose host is gone has nothing left to do.
process.on('disconnect', () => process.exit(0));

const onMessage = (msg: ToWorker) => {
  if (msg.type === 'cancel') {
    controllers.get(msg.jobId)?.abort(new CancelledError(`${msg.jobId} cancelled`));
    return;
  }
  void run(msg.jobId, msg.task);
};
if (port) port.on('message', onMessage);
else process.on('message', (msg) => onMessage(msg as ToWorker));

async function run(jobId: string, task: unknown): Promise<void> {
  const controller = new AbortController();
  controllers.set(jobId, controller);
  const onProgress = (progress: JobProgress) => send({ type: 'progress', jobId, progress });
  try {
    const result = await runTask(context, task, { signal: controller.signal, onProgress });
    send({ type: 'done', jobId, result }, transferables(result));
  } catch (error) {
    const payload = controller.signal.aborted ? toErrorPayload(new CancelledError(`${jobId} cancelled`)) : toErrorPayload(error);
    send({ type: 'failed', jobId, error: payload });
  } finally {
    controllers.delete(jobId);
  }
}
