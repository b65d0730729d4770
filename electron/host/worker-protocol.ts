import { z } from 'zod';
import { JobProgress } from '../common/api/jobs.js';
import { ErrorPayload } from '../common/errors.js';
import { describeIssues } from '../common/zod-issues.js';

/**
 * Messages between StudioHost and its engine worker. The worker runs one task at a time and says
 * `alive` every `HEARTBEAT_MS`; any message counts as a sign of life. What a task carries and returns
 * is typed by the task table (tasks/worker-tasks.ts); here a result is still unknown.
 */
export const HEARTBEAT_MS = 500;

export type ToWorker = { type: 'run'; jobId: string; task: unknown } | { type: 'cancel'; jobId: string };

export const FromWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('alive') }),
  z.object({ type: z.literal('progress'), jobId: z.string(), progress: JobProgress }),
  z.object({ type: z.literal('done'), jobId: z.string(), result: z.unknown() }),
  z.object({ type: z.literal('failed'), jobId: z.string(), error: ErrorPayload }),
]);
export type FromWorker = z.infer<typeof FromWorker>;

/** A message from the worker, checked; a malformed one gives the line that says what was wrong. */
export function parseFromWorker(message: unknown): { ok: true; message: FromWorker } | { ok: false; problem: string } {
  const parsed = FromWorker.safeParse(message);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, problem: describeIssues(parsed.error) };
}

/** Typed arrays inside `value` whose buffers can be moved rather than copied across postMessage. */
export function transferables(value: unknown, out: ArrayBuffer[] = [], depth = 0): ArrayBuffer[] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    // Only move a buffer the view covers entirely, or we would detach someone else's bytes.
    if (buffer instanceof ArrayBuffer && value.byteLength === buffer.byteLength && !out.includes(buffer)) out.push(buffer);
    return out;
  }
  for (const child of Array.isArray(value) ? value : Object.values(value)) transferables(child, out, depth + 1);
  return out;
}
