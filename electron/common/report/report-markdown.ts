import { INSTALLED_PARITY, renderComparisonMarkdown, type ParityCommand } from './comparison-markdown.js';
import { ComparisonReport } from './comparison-report.js';
import { profileComparisonView } from './comparison-view.js';
import { renderMarkdownReport } from './format/report-summary.js';
import type { ParityReport } from './report.js';

/**
 * report.md for any stored report: a profile comparison gets the verdict, divergence, step table and
 * the command that reproduces it (into `out`, started with `parity`); a measured WAV pair gets its
 * metric tables.
 */
export function reportMarkdown(report: ParityReport, out?: string, parity: ParityCommand = INSTALLED_PARITY): string {
  const profiles = ComparisonReport.safeParse(report);
  return profiles.success ? renderComparisonMarkdown(profileComparisonView(profiles.data, out, parity)) : renderMarkdownReport(report);
}
