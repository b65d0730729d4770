import type { Row } from './metric-rows.js';

/** Two aligned columns for a terminal, with an optional heading line. */
export function textTable(rows: Row[], heading?: string): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  return [...(heading ? [heading] : []), ...lines].join('\n');
}

/** A GitHub-flavoured Markdown table; pipes in values are escaped. */
export function markdownTable(rows: Row[], header: Row = ['Metric', 'Value']): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    `| ${header[0]} | ${header[1]} |`,
    '| --- | --- |',
    ...rows.map(([label, value]) => `| ${cell(label)} | ${cell(value)} |`),
  ].join('\n');
}
