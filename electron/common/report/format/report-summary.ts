import type { AudioSource, ParityReport } from '../report.js';
import { alignedRows, metricRows } from './metric-rows.js';
import { markdownTable, textTable } from './text-table.js';
import { num } from './numbers.js';

function sourceLine(label: string, s: AudioSource): string {
  const format = s.format ? `${s.format}, ` : '';
  const loudness = s.loudnessAllChannels === undefined ? '' : `, all-channel loudness ${num(s.loudnessAllChannels, 2, 'LUFS')}`;
  return `${label}: ${s.path ?? '(synthesized)'} (${format}${s.channels} ch, ${s.sampleRate} Hz; ${s.downmix}${loudness})`;
}

function notes(report: ParityReport): string[] {
  return (['a', 'b'] as const).flatMap((side) =>
    (report.sources[side].warnings ?? []).map((w) => `${side.toUpperCase()}: ${w}`),
  );
}

/** The summary printed on a terminal. */
export function renderTextSummary(report: ParityReport): string {
  const parts = [
    sourceLine('A', report.sources.a),
    sourceLine('B', report.sources.b),
    '',
    textTable(metricRows(report.metrics)),
    '',
    textTable(alignedRows(report.metrics), 'After aligning B to A by the lag:'),
  ];
  const warnings = notes(report);
  if (warnings.length) parts.push('', ...warnings.map((w) => `note: ${w}`));
  return parts.join('\n') + '\n';
}

/** report.md: paste-ready into an issue or pull request. */
export function renderMarkdownReport(report: ParityReport): string {
  const parts = [
    '## Parity report',
    '',
    `- ${sourceLine('A', report.sources.a)}`,
    `- ${sourceLine('B', report.sources.b)}`,
    '',
    markdownTable(metricRows(report.metrics)),
    '',
    '### After aligning B to A by the lag',
    '',
    markdownTable(alignedRows(report.metrics)),
  ];
  const warnings = notes(report);
  if (warnings.length) parts.push('', '### Notes', '', ...warnings.map((w) => `- ${w}`));
  parts.push('', `_${report.tool.name} ${report.tool.version}, schema ${report.schema}, ${report.createdAt}_`);
  return parts.join('\n') + '\n';
}
