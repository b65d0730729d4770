import { teacherForcedLines } from '../../common/forensics/drift.js';
import { seamLines } from '../../common/forensics/seams.js';
import { vocoderChunkLines } from '../../common/forensics/vocoder-chunks.js';
import { divergenceLines, stepTableHeading, stepTableRows, textStepTable } from '../../common/forensics/divergence-summary.js';
import type { ComparisonView } from '../../common/report/comparison-markdown.js';
import { metricRows } from '../../common/report/format/metric-rows.js';
import { textTable } from '../../common/report/format/text-table.js';

/** The terminal summary; report.md is renderComparisonMarkdown (common/report/comparison-markdown.ts). */
export function renderComparisonText(v: ComparisonView): string {
  // v.warnings go to stderr (the caller writes them), so a piped summary and the terminal both see them once.
  const parts = [...v.sides, '', ...divergenceLines(v.verdict, v.divergence, v.teacherForced, v.metrics?.audio)];
  if (v.teacherForced) parts.push('', ...teacherForcedLines(v.teacherForced));
  if (v.seams) parts.push('', ...seamLines(v.seams));
  if (v.divergence.vocoderChunks) parts.push('', ...vocoderChunkLines(v.divergence.vocoderChunks));
  if (v.baseline?.length) parts.push('', 'Determinism baseline (each profile run twice):', ...v.baseline.map((l) => `  ${l}`));
  if (v.divergence.steps.length > 0) parts.push('', `${stepTableHeading(v.divergence)}:`, textStepTable(stepTableRows(v.divergence)));
  if (v.metrics) parts.push('', textTable(metricRows(v.metrics)));
  if (v.drill?.length) parts.push('', ...v.drill);
  return parts.join('\n') + '\n';
}
