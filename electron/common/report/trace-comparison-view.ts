import { DEFAULT_MAX_LAG_MS } from '../analysis/lag-range.js';
import { DEFAULT_MODULE_TOLERANCE } from '../forensics/module-drill.js';
import { DEFAULT_TOLERANCES } from '../forensics/tolerances.js';
import type { TraceComparisonReport } from './comparison-report.js';
import { commandPath, gateCommand, INSTALLED_PARITY, parityCommandLine, rerunFolder, trimFolder, type ComparisonView, type ParityCommand } from './comparison-markdown.js';
import { moduleDrillLines } from './module-drill-lines.js';

/** How many steps each trace holds (the report keeps the headers, not the steps). */
export interface TraceStepCounts {
  a: number;
  b: number;
}

function sideLine(label: string, file: string, header: TraceComparisonReport['traces']['a']['header'], steps: number): string {
  return `${label}: ${file} (${header.engine}${header.profile ? `, ${header.profile}` : ''}, ${steps} steps)`;
}

/**
 * `parity compare-trace A B [--wav-a WA --wav-b WB]` with the tolerance and lag-range flags whose
 * recorded values are not the CLI's defaults (an import request may give another lag range), so the
 * command measures what the report holds. With `out`, the folder the report.md goes into, it reads the
 * copies stored there (`out/a.jsonl`, `out/b.jsonl`, `out/a.wav`, `out/b.wav`), which the original
 * paths may no longer name, and writes beside it (`--out <out>-rerun`); else it names the files as
 * the report does and writes nowhere. `parity` is how the command is started where the report is made.
 */
export function compareTraceCommand(report: TraceComparisonReport, out?: string, parity: ParityCommand = INSTALLED_PARITY): string {
  const { a, b } = report.traces;
  const at = (path: string): string => commandPath(parity, path);
  const folder = out === undefined ? undefined : at(trimFolder(out));
  const stored = (name: string): string => `${folder}/${name}`;
  const args = ['compare-trace', ...(out === undefined ? [at(a.file), at(b.file)] : [stored('a.jsonl'), stored('b.jsonl')])];
  if (report.sources) {
    if (out === undefined) args.push('--wav-a', at(report.sources.a.path ?? 'a.wav'), '--wav-b', at(report.sources.b.path ?? 'b.wav'));
    else args.push('--wav-a', stored('a.wav'), '--wav-b', stored('b.wav'));
  }
  const t = report.divergence.tolerances;
  if (t.logitAbs !== DEFAULT_TOLERANCES.logitAbs) args.push('--logit-tol', String(t.logitAbs));
  if (t.logitRel !== DEFAULT_TOLERANCES.logitRel) args.push('--logit-rel-tol', String(t.logitRel));
  if (t.audioAbs !== DEFAULT_TOLERANCES.audioAbs) args.push('--audio-tol', String(t.audioAbs));
  if (t.nearTieGap !== undefined) args.push('--near-tie-gap', String(t.nearTieGap));
  const lag = report.metrics ? Number(report.metrics.maxLagMs) : DEFAULT_MAX_LAG_MS;
  if (lag !== DEFAULT_MAX_LAG_MS) args.push('--max-lag-ms', String(lag));
  const m = report.moduleDrill;
  if (m) {
    if (out === undefined) args.push('--modules-a', at(m.sidecars.a), '--modules-b', at(m.sidecars.b));
    else args.push('--modules-a', stored('a.modules.safetensors'), '--modules-b', stored('b.modules.safetensors'));
    if (m.tolerance.abs !== DEFAULT_MODULE_TOLERANCE.abs) args.push('--drill-tol', String(m.tolerance.abs));
    if (m.tolerance.rel !== DEFAULT_MODULE_TOLERANCE.rel) args.push('--drill-rel-tol', String(m.tolerance.rel));
  }
  if (out !== undefined) args.push('--out', at(rerunFolder(out)));
  return parityCommandLine(parity, args);
}

/**
 * The summary of two compared traces, as `parity compare-trace` prints it and writes it into report.md
 * (the studio's export of an imported trace pair writes the same). `out` is the folder the report.md
 * goes into: the reproduce command reads the traces (and WAVs) stored there and writes `<out>-rerun`,
 * and `parity gate <out>` is given as its re-check; both start with `parity`.
 */
export function traceComparisonView(report: TraceComparisonReport, steps: TraceStepCounts, out?: string, parity: ParityCommand = INSTALLED_PARITY): ComparisonView {
  const { a, b } = report.traces;
  return {
    title: 'Parity report (traces)',
    sides: [sideLine('A', a.file, a.header, steps.a), sideLine('B', b.file, b.header, steps.b)],
    warnings: report.warnings,
    verdict: report.verdict,
    divergence: report.divergence,
    metrics: report.metrics,
    teacherForced: report.teacherForced,
    drill: report.moduleDrill ? moduleDrillLines(report.moduleDrill) : undefined,
    command: compareTraceCommand(report, out, parity),
    recheck: out === undefined ? undefined : gateCommand(out, parity),
    footer: `${report.tool.name} ${report.tool.version}, schema ${report.schema}, ${report.createdAt}`,
  };
}
