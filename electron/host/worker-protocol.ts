import type { ErrorPayload } from '../common/errors.js';
import type { JobProgress } from '../common/api/jobs.js';

/**
 * Messages between StudioHost and its engine worker. The worker runs one task at a time and says
 * `alive` every `HEARTBEAT_MS`; any message counts as a sign of life.
 */
export const HEARTBEAT_MS = 500;

export type ToWorker = { type: 'run'; jobId: string; task: unknown } | { type: 'cancel'; jobId: string };

export type FromWorker =
  | { type: 'alive' }
  | { type: 'progress'; jobId: string; progress: JobProgress }
  | { type: 'done'; jobId: string; result: unknown }
  | { type: 'failed'; jobId: string; error: ErrorPayload };

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
