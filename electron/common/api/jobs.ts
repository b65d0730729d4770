import { z } from 'zod';
import { JobId } from './primitives.js';

/** Long work (synthesize, compare, drill-down) starts a job; progress arrives as events, the result on request. */
export const JobStarted = z.object({ jobId: JobId });
export type JobStarted = z.infer<typeof JobStarted>;

export const JobRef = z.object({ jobId: JobId });
export type JobRef = z.infer<typeof JobRef>;

/**
 * Which part of the job is running: one profile's synthesis (a drill-down: re-running it up to the
 * step), the comparison of the two (a drill-down: of one recorded run), or, in a drill-down only,
 * promoting a network's node outputs to graph outputs and opening it.
 */
export const JobPhase = z.enum(['load', 'A', 'B', 'synthesize', 'compare', 'promote', 'save']);

export const JobProgress = z.object({
  phase: JobPhase,
  /** Decode step within the phase, from 1; 0 before the first step. */
  step: z.number().int().nonnegative(),
  /** Upper bound of steps in the phase (max frames); 0 when unknown. */
  totalSteps: z.number().int().nonnegative(),
  /** Overall fraction done, 0..1, for one progress bar. */
  fraction: z.number().min(0).max(1),
  message: z.string().max(500).optional(),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const ErrorPayload = z.object({
  kind: z.enum(['input', 'wav', 'bundle', 'profile', 'trace', 'engine', 'endpoint', 'cancelled', 'internal']),
  message: z.string(),
  where: z.string().optional(),
});

export const JobOutcome = z.object({
  state: z.enum(['done', 'failed', 'cancelled']),
  error: ErrorPayload.optional(),
});
export type JobOutcome = z.infer<typeof JobOutcome>;

export const Cancelled = z.object({ cancelled: z.boolean() });
