import { DEFAULT_MAX_LAG_MS } from '../analysis/compare.js';
import { DEFAULT_TOLERANCES } from '../forensics/tolerances.js';
import type { TraceComparisonReport } from './comparison-report.js';
import { gateCommand, shellQuote, type ComparisonView } from './comparison-markdown.js';

/** How many steps each trace holds (the report keeps the headers, not the steps). */
export interface TraceStepCounts {
  a: number;
  b: number;
}

function sideLine(label: string, file: string, header: TraceComparisonReport['traces']['a']['header'], steps: number): string {
  return `${label}: ${file} (${header.engine}${header.profile ? `, ${header.profile}` : ''}, ${steps} steps)`;
}

/**
 * `npx parity compare-trace A B [--wav-a WA --wav-b WB]` with the files as the report names them, and
 * the tolerance and lag-range flags whose recorded values are not the CLI's defaults (an import
 * request may give another lag range), so the command measures what the report holds.
 */
export function compareTraceCommand(report: TraceComparisonReport): string {
  const { a, b } = report.traces;
  const args = ['npx', 'parity', 'compare-trace', a.file, b.file];
  if (report.sources) args.push('--wav-a', report.sources.a.path ?? 'a.wav', '--wav-b', report.sources.b.path ?? 'b.wav');
  const t = report.divergence.tolerances;
  if (t.logitAbs !== DEFAULT_TOLERANCES.logitAbs) args.push('--logit-tol', String(t.logitAbs));
  if (t.logitRel !== DEFAULT_TOLERANCES.logitRel) args.push('--logit-rel-tol', String(t.logitRel));
  if (t.audioAbs !== DEFAULT_TOLERANCES.audioAbs) args.push('--audio-tol', String(t.audioAbs));
  const lag = report.metrics ? Number(report.metrics.maxLagMs) : DEFAULT_MAX_LAG_MS;
  if (lag !== DEFAULT_MAX_LAG_MS) args.push('--max-lag-ms', String(lag));
  return args.map(shellQuote).join(' ');
}

/**
 * The summary of two compared traces, as `parity compare-trace` prints it and writes it into report.md
 * (the studio's export of an imported trace pair writes the same). `out` is the folder the report.md
 * goes into: `parity gate <out>` is given as its re-check.
 */
export function traceComparisonView(report: TraceComparisonReport, steps: TraceStepCounts, out?: string): ComparisonView {
  const { a, b } = report.traces;
  return {
    title: 'Parity report (traces)',
    sides: [sideLine('A', a.file, a.header, steps.a), sideLine('B', b.file, b.header, steps.b)],
    verdict: report.verdict,
    divergence: report.divergence,
    metrics: report.metrics,
    command: compareTraceCommand(report),
    recheck: out === undefined ? undefined : gateCommand(out),
    footer: `${report.tool.name} ${report.tool.version}, schema ${report.schema}, ${report.createdAt}`,
  };
}
