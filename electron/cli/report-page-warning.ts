import { reportPageMissing } from '../host/report-html/page-bundle.js';
import { printErr } from './print.js';

/**
 * Before a command writes fixture folders: one warning line when report.html cannot be made (the report
 * page is not built). The fixtures are still written, report.html left out (docs/report-format.md,
 * "Shareable files"): a missing build is an installation problem, not a failed comparison.
 */
export function warnIfNoReportPage(): void {
  const missing = reportPageMissing();
  if (missing !== null) printErr(`warning: ${missing}\n`);
}
