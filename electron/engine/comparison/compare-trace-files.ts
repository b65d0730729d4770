import { compareTraceSteps, type CompareTracesOptions, type StepPair, type TraceSideHeader, type TraceStepsComparison } from '../../common/forensics/compare-traces.js';
import type { StepComparison } from '../../common/forensics/divergence.js';
import { stepTableRange } from '../../common/forensics/divergence-summary.js';
import { Localiser } from '../../common/forensics/localise.js';
import { PAGE_STEP_LIMIT } from '../../common/report/html/report-page-data.js';
import { traceSteps } from './stream-trace.js';

/** Steps 1, 2, … of two trace files (checked by scanTrace) read side by side, undefined past a file's last step. */
export async function* zipTraceSteps(fileA: string, fileB: string): AsyncGenerator<StepPair> {
  const a = traceSteps(fileA);
  const b = traceSteps(fileB);
  try {
    for (;;) {
      const [x, y] = await Promise.all([a.next(), b.next()]);
      if (x.done && y.done) return;
      yield [x.done ? undefined : x.value, y.done ? undefined : y.value];
    }
  } finally {
    await Promise.all([a.return(undefined), b.return(undefined)]);
  }
}

export interface TraceFilesComparison extends TraceStepsComparison {
  /** Every row of `divergence.steps`, read from the files again, in order (the report holds only the rows its views show). */
  rows(): AsyncGenerator<StepComparison>;
}

/**
 * compareTraces of two trace files (sides from scanTrace) read as streams, in memory that does not grow
 * with the steps: the report's `divergence.steps` has every step's place but holds only the rows the
 * summary, report.md and report.html show (the first PAGE_STEP_LIMIT and the step table's); `rows()`
 * gives all of them for report.json.
 */
export async function compareTraceFiles(
  a: TraceSideHeader,
  b: TraceSideHeader,
  options: CompareTracesOptions,
  /** How many leading rows the report holds (the page's charts show PAGE_STEP_LIMIT). */
  keepFirst = PAGE_STEP_LIMIT,
): Promise<TraceFilesComparison> {
  const compared = await compareTraceSteps(a, b, zipTraceSteps(a.file, b.file), options, (row) => row.step <= keepFirst);
  const { stepsA, stepsB, options: localise } = compared.localise;
  async function* rows(last = Infinity): AsyncGenerator<StepComparison> {
    const localiser = new Localiser(stepsA, stepsB, localise);
    for await (const [x, y] of zipTraceSteps(a.file, b.file)) {
      const row = localiser.add(x, y);
      yield row;
      if (row.step >= last) return;
    }
  }
  const steps = compared.report.divergence.steps;
  const { from, to } = stepTableRange(compared.report.divergence);
  if (to > keepFirst) {
    for await (const row of rows(to)) if (row.step >= from) steps[row.step - 1] = row;
  }
  return { ...compared, rows: () => rows() };
}
