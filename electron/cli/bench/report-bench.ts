import { compareSignals } from '../../common/analysis/compare.js';
import { renderMarkdownReport } from '../../common/report/format/report-summary.js';
import { REPORT_SCHEMA, type ParityReport } from '../../common/report/report.js';
import { reportPageData } from '../../common/report/html/report-page-data.js';
import { pageAudio } from '../../host/report-html/page-audio.js';
import { reportFigures } from '../../host/report-html/report-figures.js';
import { renderReportHtml } from '../../host/report-html/render-report-html.js';
import { degradedCopy, speechLikeSignal } from './bench-signals.js';

const RATE = 24000;

/** report.html and the PNGs of a 60 s 24 kHz pair (what compare-wav --out writes beside report.md). */
export interface ReportBench {
  /** report.html's size with its audio embedded (A, B, A − B as 16-bit WAVs, base64), bytes. */
  reportHtml60sBytes: number;
  /** Making report.html (audio encoding, page data, inlining): median wall time, ms. */
  reportHtml60sMs: number;
  /** Drawing and encoding overlay.png and spectrogram-diff.png (no steps without a trace): median, ms. */
  figures60sMs: number;
  runs: number;
}

async function median(runs: number, work: () => unknown): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return times.length % 2 ? times[times.length >> 1] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
}

export async function benchReport(runs: number): Promise<ReportBench> {
  const a = speechLikeSignal(60, RATE, 1);
  const b = degradedCopy(a, 37, 0.8, 1e-4);
  const diff = a.map((v, i) => v - (b[i] ?? 0)).subarray(0, Math.min(a.length, b.length));
  const { metrics } = await compareSignals(a, b, RATE);
  const channel = { sampleRate: RATE, channels: 1, downmix: 'mono' };
  const report: ParityReport = { schema: REPORT_SCHEMA, createdAt: '2026-01-01T00:00:00.000Z', tool: { name: 'bench', version: '0' }, sources: { a: channel, b: channel }, metrics };
  const audio = { a, b, diff, sampleRate: RATE };
  const page = reportPageData(report, renderMarkdownReport(report), null);
  let html = '';
  const reportHtml60sMs = await median(runs, () => {
    html = renderReportHtml({ ...page, audio: pageAudio(audio, metrics.loudnessDeltaLU) });
  });
  const figures60sMs = await median(runs, () => reportFigures(page, audio));
  return { reportHtml60sBytes: Buffer.byteLength(html), reportHtml60sMs, figures60sMs, runs };
}
