import type { DivergenceStage } from '../../common/forensics/divergence.js';
import type { DrillReport } from '../../common/report/drill.js';
import type { SamplingParams } from '../../common/sampling/types.js';
import type { JobProgress } from '../../common/api/jobs.js';
import type { DrillProgress } from '../../engine/drill/drill-progress.js';
import { DEFAULT_DRILL_TOLERANCE, drillDivergence } from '../../engine/drill/drill-step.js';
import { engineFor } from './engine-tasks.js';
import type { TaskControl } from './run-task.js';

/** Drill a saved comparison: its settings (`rerun`) and the step and stage its localiser found. */
export interface DrillTask {
  kind: 'drill';
  rerun: { text: string; profileA: string; profileB: string; seed: number; sampling: SamplingParams };
  divergence: { firstStep: number | null; stage: DivergenceStage | null };
}

/**
 * The same drill as `parity compare --drill` (default tolerance), in the worker's engine; its progress
 * as job progress (re-running A, B; promote; compare run k of n), stopped by the job's cancel.
 */
export async function drillTask(bundleDir: string | undefined, task: DrillTask, control: TaskControl): Promise<DrillReport> {
  const { engine } = await engineFor(bundleDir, control);
  const { text, profileA, profileB, seed, sampling } = task.rerun;
  const onProgress = (p: DrillProgress) => control.onProgress({ phase: phaseOf(p), step: p.step, totalSteps: p.totalSteps, fraction: p.fraction, message: p.message });
  return drillDivergence(engine, { text, profileA, profileB, seed, sampling, tolerance: DEFAULT_DRILL_TOLERANCE }, task.divergence, { signal: control.signal, onProgress });
}

function phaseOf(p: DrillProgress): JobProgress['phase'] {
  return p.part === 'record' ? (p.side ?? 'A') : p.part;
}
