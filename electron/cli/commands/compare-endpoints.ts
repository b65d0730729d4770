import { stringifyReport } from '../../common/report/json-number.js';
import type { Sampling } from '../../common/api/primitives.js';
import type { TraceComparisonReport } from '../../common/report/comparison-report.js';
import { endpointLines } from '../../common/report/format/endpoint-lines.js';
import { renderTextSummary } from '../../common/report/format/report-summary.js';
import type { ParityReport } from '../../common/report/report.js';
import { traceComparisonView } from '../../common/report/trace-comparison-view.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import { reportTime } from '../../engine/comparison/read-inputs.js';
import { compareEndpoints } from '../../host/endpoint/compare-endpoints.js';
import { endpointFixtureFiles } from '../../host/endpoint/endpoint-fixture-files.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { parityCommand } from '../../host/parity-command.js';
import { processSpectralRunner } from '../../host/spectral/process-spectral-thread.js';
import { exitOnInterrupt } from '../interrupt.js';
import { warnIfNoReportPage } from '../report-page-warning.js';
import { OUT_DIR, wroteFolderLine } from '../write-output.js';
import { failOnStatus } from './compare-options.js';
import { renderComparisonText } from './comparison-format.js';
import { printOut, printErr, controlErr } from '../print.js';

export interface EndpointCompareFlags {
  text: string;
  seed: number;
  sampling: Sampling;
  out?: string;
  force?: boolean;
  json?: boolean;
  maxLagMs?: number;
  audioTol?: number;
  failOn?: 'diverged' | 'within-tolerance';
  allowHost: string[];
}

/**
 * `parity compare --a endpoint=… --b endpoint=…`: both deployments asked for the same prompt, compared
 * (a trace pair when both servers' recorders wrote traces, else a WAV pair), the summary with what was
 * sent and what came back, and with --out the fixture folder, written only once everything is in.
 */
export async function compareEndpointSides(pair: { a: EndpointSpec; b: EndpointSpec }, o: EndpointCompareFlags): Promise<void> {
  if (o.out !== undefined) {
    await checkFixtureTarget(o.out, { force: o.force, words: OUT_DIR });
    warnIfNoReportPage();
  }
  exitOnInterrupt('compare', () => 'the requests were stopped; nothing was written');
  const tty = process.stderr.isTTY === true && !o.json;
  const result = await compareEndpoints(
    { text: o.text, a: pair.a, b: pair.b, seed: o.seed, sampling: o.sampling, maxLagMs: o.maxLagMs, audioTol: o.audioTol },
    {
      allowHosts: o.allowHost,
      env: process.env,
      createdAt: reportTime(),
      spectral: processSpectralRunner(),
      onSide: tty
        ? (side, state) => {
            controlErr(state === 'request' ? '\r' : '\r\x1b[K');
            if (state === 'request') printErr(`compare: endpoint ${side}…   `);
          }
        : undefined,
    },
  );
  const { report } = result;
  const files = o.out === undefined ? undefined : await endpointFixtureFiles(result, o.out);
  if (o.out !== undefined && files) await writeFixtureFolder(o.out, files, { force: o.force, words: OUT_DIR });
  const lines = endpointLines(report.endpoints!, report.verdict).join('\n') + '\n';
  let summary: string;
  if (result.traces) {
    const traced = report as TraceComparisonReport;
    summary = renderComparisonText(traceComparisonView(traced, { a: result.traces.a.trace.steps.length, b: result.traces.b.trace.steps.length }, o.out, parityCommand()));
  } else summary = renderTextSummary(report as ParityReport);
  printOut(o.json ? stringifyReport(report) + '\n' : `${lines}\n${summary}`);
  if (o.out !== undefined && files && !o.json) printOut(`\n${wroteFolderLine(o.out, Object.keys(files))}`);
  for (const w of (report as { warnings?: string[] }).warnings ?? []) printErr(`warning: ${w}\n`);
  process.exitCode = failOnStatus(report.verdict!, o.failOn);
}
