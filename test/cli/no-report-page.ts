/**
 * An `--import` hook for runParity that simulates an install built without `npm run build` (tsc alone):
 * the report page's script (dist/report-page/report-page.js) is not found.
 */
export const NO_REPORT_PAGE =
  'data:text/javascript,' +
  encodeURIComponent(
    'import fs from "node:fs";import { syncBuiltinESMExports } from "node:module";const exists=fs.existsSync;' +
      'fs.existsSync=(p)=>!String(p).endsWith("report-page.js")&&exists(p);syncBuiltinESMExports();',
  );

/** The one line a fixture writer prints when report.html cannot be made. */
export const NO_REPORT_PAGE_WARNING = /^warning: report\.html not written: the report page is not built \(\S*report-page\.js is missing\); run npm run build$/;
