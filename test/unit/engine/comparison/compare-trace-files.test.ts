import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareTraces } from '../../../../electron/common/forensics/compare-traces.js';
import { reportJsonChunks } from '../../../../electron/common/report/json-number.js';
import { renderComparisonMarkdown } from '../../../../electron/common/report/comparison-markdown.js';
import { reportPageData } from '../../../../electron/common/report/html/report-page-data.js';
import { reportJsonWithRows } from '../../../../electron/common/report/report-json-rows.js';
import { traceComparisonView } from '../../../../electron/common/report/trace-comparison-view.js';
import { renderComparisonText } from '../../../../electron/cli/commands/comparison-format.js';
import { compareTraceFiles } from '../../../../electron/engine/comparison/compare-trace-files.js';
import { sealReportChunks, sealReportStream, sha256File, sha256Hex } from '../../../../electron/engine/comparison/fixture-integrity.js';
import { readTraceFile, scanTrace } from '../../../../electron/engine/comparison/stream-trace.js';
import { malformedTraces } from '../../common/trace/malformed-traces.js';

const dir = mkdtempSync(join(tmpdir(), 'compare-trace-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface TraceShape {
  steps: number;
  /** B's statistics (and code 0) differ from this step on. */
  divergeAt?: number;
  shift?: number;
  flipCodes?: boolean;
  codePredictor?: boolean;
  nanAt?: number;
  partial?: boolean;
  header?: Record<string, unknown>;
}

const stats = (s: number, d: number, nan: boolean) => ({
  mean: nan ? 'NaN' : Math.sin(s) + d,
  std: 1 + 0.1 * Math.cos(s),
  min: -5 + d,
  max: 7 + d,
  argmax: s % 64,
  top5: [{ id: s % 64, logit: 7 + d }, { id: (s + 1) % 64, logit: 6.5 }],
});

function traceText(t: TraceShape, eol = '\n'): string {
  const lines = [JSON.stringify({ schema: 'tts-parity-trace/1', engine: 'gen', q: 4, frameRate: 12.5, sampleRate: 24000, ...t.header })];
  for (let s = 1; s <= t.steps; s++) {
    const d = s >= (t.divergeAt ?? Infinity) ? (t.shift ?? 0.01) : 0;
    const codes = [0, 1, 2, 3].map((c) => (s * 7 + c * 13 + (d && t.flipCodes !== false && c === 0 ? 1 : 0)) % 64);
    const step: Record<string, unknown> = { step: s, logits: t.partial ? { mean: Math.sin(s) + d } : stats(s, d, s === t.nanAt), codes };
    if (t.codePredictor) step.codePredictorLogits = [0, 1, 2].map((c) => stats(s + c, d / 2, false));
    if (s === t.nanAt) step.nan = { talker: 3, codePredictor: 0, vocoder: 0 };
    lines.push(JSON.stringify(step));
  }
  return lines.join(eol) + eol;
}

const delays = { codebookDelays: [0, 1, 2, 3] };
// [name, A, B, line ending, leading rows the report holds (fewer than the page's 20,000: its step table is read again)]
const CASES: [string, TraceShape, TraceShape, string?, number?][] = [
  ['identical', { steps: 40 }, { steps: 40 }],
  ['diverged, code-predictor rows', { steps: 60, codePredictor: true }, { steps: 60, codePredictor: true, divergeAt: 25 }],
  ['logits only, re-converging lengths', { steps: 50 }, { steps: 45, divergeAt: 30, flipCodes: false, shift: 0.5 }],
  ['NaN rows', { steps: 40, nanAt: 12 }, { steps: 40, nanAt: 17 }],
  ['delay pattern', { steps: 50, header: delays }, { steps: 50, header: delays, divergeAt: 20 }],
  ['teacher forced', { steps: 45, codePredictor: true }, { steps: 45, codePredictor: true, divergeAt: 20, shift: 1e-5, header: { teacherForced: 'A: ref' } }],
  ['partial', { steps: 30, partial: true }, { steps: 30, divergeAt: 28 }],
  ['CRLF and a BOM', { steps: 30 }, { steps: 31, divergeAt: 9 }, '\r\n'],
  ['step table past the rows held', { steps: 60, codePredictor: true }, { steps: 60, codePredictor: true, divergeAt: 41 }, '\n', 20],
  ['largest difference past the rows held', { steps: 60 }, { steps: 60, divergeAt: 50, shift: 1e-4, flipCodes: false }, '\n', 20],
];

async function text(pieces: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const piece of pieces) out += piece;
  return out;
}

describe('compare-trace streamed (compareTraceFiles) against the whole-trace comparison (compareTraces)', () => {
  it.each(CASES)('%s: the same report.json, sealed report, summary, report.md and page data', async (name, shapeA, shapeB, eol, keepFirst) => {
    const file = (side: string, shape: TraceShape) => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}-${side}.jsonl`);
      writeFileSync(path, (side === 'b' && eol ? '\ufeff' : '') + traceText(shape, eol));
      return path;
    };
    const [pathA, pathB] = [file('a', shapeA), file('b', shapeB)];
    const options = { createdAt: '2026-01-01T00:00:00.000Z' };
    const whole = await compareTraces({ file: pathA, trace: await readTraceFile(pathA) }, { file: pathB, trace: await readTraceFile(pathB) }, options);
    const [a, b] = [await scanTrace(pathA), await scanTrace(pathB)];
    const { report, rows } = await compareTraceFiles(a, b, options, keepFirst);

    expect(await text(reportJsonWithRows(report, rows()))).toBe(reportJsonChunks(whole).join(''));
    const counts = { a: a.steps, b: b.steps };
    const view = traceComparisonView(report, counts, 'out');
    const wholeView = traceComparisonView(whole, counts, 'out');
    expect(renderComparisonText(view)).toBe(renderComparisonText(wholeView));
    const markdown = renderComparisonMarkdown(view);
    expect(markdown).toBe(renderComparisonMarkdown(wholeView));
    if (keepFirst === undefined) expect(JSON.stringify(reportPageData(report, markdown, 12.5))).toBe(JSON.stringify(reportPageData(whole, markdown, 12.5)));
    else expect(report.divergence.steps.filter(Boolean).length).toBeLessThan(whole.divergence.steps.length);

    const files = { 'a.jsonl': readFileSync(pathA), 'report.md': markdown };
    const hashes = { 'report.md': sha256Hex(markdown), 'a.jsonl': await sha256File(pathA) };
    const sealed = await sealReportStream(report, hashes, (r) => reportJsonWithRows(r as typeof report, rows()));
    expect(await text(sealed())).toBe(sealReportChunks(whole, files).join(''));
  });

  it.each(malformedTraces())('%s: scanTrace refuses it with readTraceFile\'s message', async (what, content) => {
    const path = join(dir, `bad-${what.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(path, content);
    const expected = await readTraceFile(path).then(() => 'read', (e: Error) => e.message);
    expect(expected).not.toBe('read');
    await expect(scanTrace(path)).rejects.toThrow(expected);
  });
});
