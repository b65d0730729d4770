import { z } from 'zod';
import { Audio } from '../../common/api/primitives.js';
import { BundleInfo } from '../../common/api/bundle-info.js';
import { SynthesisResult } from '../../common/api/synthesis.js';
import { ParityError } from '../../common/errors.js';
import { ComparisonReport, TraceComparisonReport } from '../../common/report/comparison-report.js';
import { DrillReport } from '../../common/report/drill.js';
import { ParityReport } from '../../common/report/report.js';
import { describeIssues } from '../../common/zod-issues.js';
import type { RunControl, WorkerSupervisor } from '../worker-supervisor.js';
import type { WorkerTask } from './run-task.js';

/**
 * The worker crossing's one table: for each task kind, the schema of what the worker returns. The host
 * parses every result with it, so nothing from the worker is used unchecked.
 */
export const workerResults = {
  info: BundleInfo,
  synthesize: SynthesisResult,
  compare: z.object({ profileA: z.string(), profileB: z.string(), report: ComparisonReport, a: Audio, b: Audio }),
  'compare-wavs': z.object({ report: ParityReport, a: Audio, b: Audio }),
  'compare-traces': z.object({ report: TraceComparisonReport, a: Audio.optional(), b: Audio.optional() }),
  drill: DrillReport,
} satisfies Record<WorkerTask['kind'], z.ZodType>;

export type WorkerTaskKind = WorkerTask['kind'];
export type WorkerTaskOf<K extends WorkerTaskKind> = Extract<WorkerTask, { kind: K }>;
export type WorkerResult<K extends WorkerTaskKind> = z.infer<(typeof workerResults)[K]>;

/** Runs `task` in the supervisor's worker and returns its result parsed by the table's schema. */
export async function runWorkerTask<K extends WorkerTaskKind>(
  supervisor: WorkerSupervisor,
  jobId: string,
  what: string,
  task: WorkerTaskOf<K>,
  control: RunControl = {},
): Promise<WorkerResult<K>> {
  const raw = await supervisor.run(jobId, what, task, control);
  const parsed = (workerResults[task.kind as K] as unknown as z.ZodType<WorkerResult<K>>).safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ParityError('internal', `the engine worker returned a malformed "${task.kind}" result for ${what} (${jobId}): ${describeIssues(parsed.error)}`);
}
