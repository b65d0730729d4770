import { reportPageData, type ReportForPage } from '../../common/report/html/report-page-data.js';
import { pageAudio, type ReportAudio } from './page-audio.js';
import { figureNames, figuresMarkdown, reportFigures } from './report-figures.js';
import { reportPageMissing } from './page-bundle.js';
import { renderReportHtml } from './render-report-html.js';

/** What a fixture writer knows when it writes report.md. */
export interface ShareableInput {
  report: ReportForPage;
  /** report.md as written (with `withFigureLinks`), so the page shows the same words. */
  markdown: string;
  /** Frames per second, to put steps on the timeline; null without a step trace. */
  frameRate: number | null;
  audio?: ReportAudio;
}

/** report.md with the figure section `shareableFiles` will fill: call it before the report is sealed. */
export function withFigureLinks(markdown: string, input: Omit<ShareableInput, 'markdown'>): string {
  const page = reportPageData(input.report, markdown, input.frameRate, input.audio);
  return markdown + figuresMarkdown(figureNames(page, input.audio));
}

/**
 * report.html and the PNG figures of a fixture folder (docs/report-format.md, "Shareable files"). They are
 * views of report.json and the WAVs, so they are not sealed: `parity gate` re-checks what they show.
 * Without a built report page (`reportPageMissing`, which the CLI prints as a warning) report.html is
 * left out and the figures are still drawn.
 */
export async function shareableFiles(input: ShareableInput): Promise<Record<string, Uint8Array | string>> {
  const page = reportPageData(input.report, input.markdown, input.frameRate, input.audio);
  const figures = await reportFigures(page, input.audio);
  if (reportPageMissing() !== null) return figures;
  const audio = input.audio ? pageAudio(input.audio, input.report.metrics?.loudnessDeltaLU) : null;
  return { 'report.html': renderReportHtml({ ...page, audio }), ...figures };
}
