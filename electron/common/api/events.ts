import { z } from 'zod';
import { JobId } from './primitives.js';
import { JobOutcome, JobProgress } from './jobs.js';

/** Events the host emits, as name -> labelled tuple; `on()` returns its disposer. */
export type StudioEvents = {
  progress: [jobId: string, progress: JobProgress];
  jobFinished: [jobId: string, outcome: JobOutcome];
  historyChanged: [];
  /** The engine worker died (crash, out of memory, hang) and a new one was started. */
  workerRestarted: [reason: string];
};
export type EventName = keyof StudioEvents;

/** The same events as zod tuples, so the receiving side of a transport can parse what arrives. */
export const studioEventSchemas = {
  progress: z.tuple([JobId, JobProgress]),
  jobFinished: z.tuple([JobId, JobOutcome]),
  historyChanged: z.tuple([]),
  workerRestarted: z.tuple([z.string()]),
} satisfies { [K in EventName]: z.ZodType<StudioEvents[K], unknown> };

export const EVENT_NAMES = Object.keys(studioEventSchemas) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(studioEventSchemas, name);
}
