import type { DivergenceStage } from '../../common/forensics/divergence.js';
import type { DrillReport } from '../../common/report/drill.js';
import type { SamplingParams } from '../../common/sampling/types.js';
import { DEFAULT_DRILL_TOLERANCE, drillDivergence } from '../../engine/drill/drill-step.js';
import { engineFor } from './engine-tasks.js';
import type { TaskControl } from './run-task.js';

/** Drill a saved comparison: its settings (`rerun`) and the step and stage its localiser found. */
export interface DrillTask {
  kind: 'drill';
  rerun: { text: string; profileA: string; profileB: string; seed: number; sampling: SamplingParams };
  divergence: { firstStep: number | null; stage: DivergenceStage | null };
}

/** The same drill as `parity compare --drill` (default tolerance), in the worker's engine. */
export async function drillTask(bundleDir: string | undefined, task: DrillTask, control: TaskControl): Promise<DrillReport> {
  const { engine } = await engineFor(bundleDir, control);
  const { text, profileA, profileB, seed, sampling } = task.rerun;
  return drillDivergence(engine, { text, profileA, profileB, seed, sampling, tolerance: DEFAULT_DRILL_TOLERANCE }, task.divergence);
}
