import { escapeHtml } from '../escape-html.js';

/**
 * A static HTML page (gate.html, sweep.html): no script, and a Content-Security-Policy that lets no
 * request leave it; `title` is escaped here, `style` and the `body` lines are written as given, inside
 * `<main>`. Same inputs, same bytes.
 */
export function staticPage(title: string, style: string, body: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body><main>',
    ...body,
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}
