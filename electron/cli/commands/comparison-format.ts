import { divergenceLines, markdownStepTable, stepTableHeading, stepTableRows, textStepTable } from '../../common/forensics/divergence-summary.js';
import type { Divergence } from '../../common/forensics/divergence.js';
import type { Metrics } from '../../common/report/metrics.js';
import type { Verdict } from '../../common/report/report.js';
import { metricRows } from '../format/metric-rows.js';
import { markdownTable, textTable } from '../format/text-table.js';

export interface ComparisonView {
  title: string;
  /** Lines naming what was compared (profiles, files, provider). */
  sides: string[];
  /** Warnings that change what the verdict means (a fault that did not act, a stage not compared). */
  warnings?: string[];
  verdict: Verdict;
  divergence: Divergence;
  metrics?: Metrics;
  /** The command that reproduces it. */
  command: string;
  footer: string;
}

export function renderComparisonText(v: ComparisonView): string {
  // v.warnings go to stderr (the caller writes them), so a piped summary and the terminal both see them once.
  const parts = [...v.sides, '', ...divergenceLines(v.verdict, v.divergence)];
  if (v.divergence.steps.length > 0) parts.push('', `${stepTableHeading(v.divergence)}:`, textStepTable(stepTableRows(v.divergence)));
  if (v.metrics) parts.push('', textTable(metricRows(v.metrics)));
  return parts.join('\n') + '\n';
}

/** report.md: verdict, where it diverges, the step table around it, key metrics, the command. */
export function renderComparisonMarkdown(v: ComparisonView): string {
  const parts = [`## ${v.title}`, '', ...v.sides.map((s) => `- ${s}`)];
  if (v.warnings?.length) parts.push('', ...v.warnings.map((w) => `> **Warning:** ${w}`));
  parts.push('', ...divergenceLines(v.verdict, v.divergence).map((l) => `- ${l.trim()}`));
  if (v.divergence.steps.length > 0) parts.push('', `### ${stepTableHeading(v.divergence)}`, '', markdownStepTable(stepTableRows(v.divergence)));
  if (v.metrics) parts.push('', '### Audio', '', markdownTable(metricRows(v.metrics)));
  parts.push('', '### Reproduce', '', '```sh', v.command, '```', '', `_${v.footer}_`);
  return parts.join('\n') + '\n';
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
