import { readFileSync } from 'node:fs';
import { renderComparisonMarkdown } from '../../common/report/comparison-markdown.js';
import type { TraceComparisonReport } from '../../common/report/comparison-report.js';
import type { EndpointComparison } from '../../common/report/endpoint-exchange.js';
import { endpointLines } from '../../common/report/format/endpoint-lines.js';
import { renderMarkdownReport } from '../../common/report/format/report-summary.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { ParityReport } from '../../common/report/report.js';
import { traceComparisonView } from '../../common/report/trace-comparison-view.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { sealReport } from '../../engine/comparison/fixture-integrity.js';
import { parityCommand } from '../parity-command.js';
import { shareableFiles, withFigureLinks } from '../report-html/shareable-files.js';
import type { EndpointCompareResult } from './compare-endpoints.js';

/** report.md's section on the two endpoints, added below the comparison's own. */
export function endpointMarkdown(e: EndpointComparison, verdict?: string): string {
  return ['', '### Endpoints', '', ...endpointLines(e, verdict).map((l) => `- ${l}`), ''].join('\n');
}

/**
 * The fixture folder of an endpoint comparison. As a trace pair: as `compare-trace --out` writes it
 * (a.jsonl, b.jsonl copies of the servers' traces, a.wav, b.wav, diff.wav, report.md, report.json sealed
 * with their sha256, so `parity gate` re-runs it over the copies); as a WAV pair: as `compare-wav --out`
 * (not a gate fixture: nothing to re-run without the servers). Both with report.html and the PNGs.
 */
export async function endpointFixtureFiles(c: EndpointCompareResult, out: string): Promise<Record<string, Uint8Array | string>> {
  const rate = c.report.sources!.a.sampleRate;
  const audio = { a: c.a, b: c.b, diff: c.diff, sampleRate: rate };
  const wavs = { 'a.wav': encodeWav([c.a], rate, 'float32'), 'b.wav': encodeWav([c.b], rate, 'float32'), 'diff.wav': encodeWav([c.diff], rate, 'float32') };
  const endpoints = c.report.endpoints!;
  if (c.traces) {
    const report = c.report as TraceComparisonReport;
    const view = traceComparisonView(report, { a: c.traces.a.trace.steps.length, b: c.traces.b.trace.steps.length }, out, parityCommand());
    const shared = { report, frameRate: report.traces.a.header.frameRate, audio };
    const markdown = withFigureLinks(renderComparisonMarkdown(view) + endpointMarkdown(endpoints), shared);
    const files: Record<string, Uint8Array | string> = { 'a.jsonl': readFileSync(c.traces.a.file), 'b.jsonl': readFileSync(c.traces.b.file), ...wavs, 'report.md': markdown };
    return { ...files, 'report.json': sealReport(report, files), ...(await shareableFiles({ ...shared, markdown })) };
  }
  const report = c.report as ParityReport;
  const reportJson = stringifyReport(report);
  ParityReport.parse(JSON.parse(reportJson));
  const shared = { report, frameRate: null, audio };
  const markdown = withFigureLinks(renderMarkdownReport(report) + endpointMarkdown(endpoints, report.verdict), shared);
  return { ...wavs, 'report.json': reportJson + '\n', 'report.md': markdown, ...(await shareableFiles({ ...shared, markdown })) };
}
