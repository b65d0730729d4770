import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The report page as `vite build --mode report` writes it: one script and its stylesheet. */
export interface PageBundle {
  script: string;
  style: string;
}

/** dist/report-page beside dist/electron (from source: the repository's dist/report-page). */
function bundleDir(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../../dist/report-page/', here) : new URL('../../../report-page/', here));
}

let cached: PageBundle | undefined;

/**
 * Why report.html cannot be made here, or null when it can. A missing build is an installation problem
 * (a checkout built with tsc alone), not a bug: fixture writers leave report.html out and say this once.
 */
export function reportPageMissing(dir: string = bundleDir()): string | null {
  const script = `${dir}report-page.js`;
  return existsSync(script) ? null : `report.html not written: the report page is not built (${script} is missing); run npm run build`;
}

/** Read once per process; a missing build is named with the command that makes it. */
export function pageBundle(): PageBundle {
  if (cached) return cached;
  const dir = bundleDir();
  const missing = reportPageMissing(dir);
  if (missing !== null) throw new Error(missing);
  const script = `${dir}report-page.js`;
  const css = `${dir}report-page.css`;
  cached = { script: readFileSync(script, 'utf8'), style: existsSync(css) ? readFileSync(css, 'utf8') : '' };
  return cached;
}
