import { createHash } from 'node:crypto';
import type { ReportPageData } from '../../common/report/html/report-page-data.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { pageBundle, type PageBundle } from './page-bundle.js';
import { escapeHtml } from '../../common/report/escape-html.js';

/** Text safe inside <script>…</script>: no "</script" can close it early ("<" written as \u003c in JSON). */
const jsonForScript = (data: unknown) => stringifyReport(data, 0).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
const scriptForScript = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1');

/**
 * report.html: the built report page with its data (and audio) inlined, one file that makes no request.
 * The Content-Security-Policy allows only the page's own script (by hash), inline styles, and media from
 * blob:/data: — or file: too when the audio plays from the WAVs beside it — so nothing can reach a network.
 * The bytes depend on `data` and the page build only (no time, no randomness).
 */
export function renderReportHtml(data: ReportPageData, bundle: PageBundle = pageBundle()): string {
  const script = scriptForScript(bundle.script);
  const hash = createHash('sha256').update(script).digest('base64');
  const media = data.audio && !data.audio.embedded ? 'blob: data: file:' : 'blob: data:';
  const csp = `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data: blob:; media-src ${media}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="parity report page">',
    `<title>${escapeHtml(data.title)}</title>`,
    `<style>${bundle.style.replace(/<\/(style)/gi, '<\\/$1')}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script type="application/json" id="report-data">${jsonForScript(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
