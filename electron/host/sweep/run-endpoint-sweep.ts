import type { Sampling } from '../../common/api/primitives.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import { caseFromReport, type CaseReport } from '../../common/sweep/case-from-report.js';
import type { PlannedCase } from '../../common/sweep/plan.js';
import type { SweepCase } from '../../common/sweep/sweep-case.js';
import { reportTime } from '../../engine/comparison/read-inputs.js';
import { compareEndpoints } from '../endpoint/compare-endpoints.js';
import { runCases } from './run-cases.js';

export interface EndpointSweepOptions {
  a: EndpointSpec;
  b: EndpointSpec;
  sampling: Sampling;
  allowHosts: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  onCase: (c: SweepCase) => void;
}

/**
 * Each case as `parity compare --a endpoint=… --b endpoint=…` runs it, one at a time (so the first-audio
 * times and the trace pickup see one request per server). A case a server fails (an HTTP error, a cut
 * stream) is an error line and the sweep goes on; the gate decides (`--max-errors`).
 */
export async function runEndpointSweep(cases: PlannedCase[], o: EndpointSweepOptions): Promise<void> {
  await runCases(
    cases.map((c) => ({ index: c.index, id: c.id, seed: c.seed, text: c.text, key: c.key })),
    async (task) => {
      const started = performance.now();
      const { report } = await compareEndpoints(
        { text: task.text, a: o.a, b: o.b, seed: task.seed, sampling: o.sampling },
        { allowHosts: o.allowHosts, env: o.env, signal: o.signal, createdAt: reportTime() },
      );
      const e = report.endpoints!;
      const traced = 'divergence' in report ? (report as CaseReport) : undefined;
      const line: CaseReport = {
        verdict: report.verdict!,
        divergence: traced?.divergence ?? { firstStep: null, stage: null, reconverges: false },
        metrics: report.metrics,
        a: { timings: { totalMs: e.a.response.totalMs } },
        b: { timings: { totalMs: e.b.response.totalMs } },
      };
      return caseFromReport(task, line, performance.now() - started);
    },
    { concurrency: 1, perCaseKinds: ['endpoint', 'wav', 'trace'], signal: o.signal, onCase: o.onCase },
  );
}
