import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readTraceFile } from '../../engine/comparison/stream-trace.js';
import type { Trace } from '../../common/trace/trace-format.js';

/** The trace files of a recorder's folder, by name, with what changes when one is (re)written. */
export type TraceFolderState = Map<string, string>;

function listTraces(dir: string): TraceFolderState {
  const state: TraceFolderState = new Map();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return state;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    try {
      const s = statSync(join(dir, name));
      if (s.isFile()) state.set(name, `${s.size}:${s.mtimeMs}`);
    } catch {
      // removed between the listing and the stat: not ours
    }
  }
  return state;
}

/** Taken before a request: what is already in the folder is not this request's. */
export function traceFolderState(dir: string): TraceFolderState {
  return listTraces(dir);
}

export type TracePickup = { found: true; file: string; requestId: string; trace: Trace } | { found: false; why: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The trace the server's recorder wrote for the request just answered: the one `.jsonl` file in `dir` that
 * is new or changed since `before`, once its size holds still (the recorder writes it as the request
 * finishes, possibly after the HTTP response). Its request id is the header's `requestId` (the engine's
 * own id: vLLM-Omni's speech route names requests itself and does not take the client's X-Request-Id).
 * None, or more than one (other traffic on the server), is said, not guessed.
 */
export async function pickUpTrace(dir: string, before: TraceFolderState, waitMs = 5000, pollMs = 100): Promise<TracePickup> {
  const deadline = performance.now() + waitMs;
  let last = '';
  for (;;) {
    const now = listTraces(dir);
    const fresh = [...now].filter(([name, stamp]) => before.get(name) !== stamp).map(([name]) => name).sort();
    const key = fresh.map((n) => `${n}=${now.get(n)}`).join('|');
    if (fresh.length > 1) return { found: false, why: `${fresh.length} traces appeared in ${dir} during the request (${fresh.slice(0, 3).join(', ')}${fresh.length > 3 ? ', …' : ''}): other requests ran on that server, so which is this one's cannot be told` };
    if (fresh.length === 1 && key === last) {
      const file = join(dir, fresh[0]);
      const trace = await readTraceFile(file);
      const id = (trace.header as { requestId?: unknown }).requestId;
      return { found: true, file, requestId: typeof id === 'string' ? id : fresh[0].replace(/\.jsonl$/, ''), trace };
    }
    last = key;
    if (performance.now() > deadline) {
      return { found: false, why: fresh.length === 0 ? `the server wrote no trace into ${dir} for this request (is its recorder switched on, writing there?)` : `${fresh[0]} in ${dir} was still growing after ${waitMs / 1000} s` };
    }
    await sleep(pollMs);
  }
}
