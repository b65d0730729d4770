import type { Audio, ComparisonResult } from '../common/api/index.js';
import { InputError } from '../common/errors.js';
import { ComparisonReport, TraceComparisonReport, type ComparisonSide } from '../common/report/comparison-report.js';
import { stringifyReport } from '../common/report/json-number.js';
import { renderComparisonMarkdown } from '../common/report/comparison-markdown.js';
import { reportMarkdown } from '../common/report/report-markdown.js';
import { ParityReport } from '../common/report/report.js';
import { traceComparisonView } from '../common/report/trace-comparison-view.js';
import { readTrace } from '../common/trace/read-trace.js';
import { writeTrace } from '../common/trace/write-trace.js';
import { encodeWav } from '../common/wav/encode-wav.js';
import { difference } from '../engine/comparison/compare-profiles.js';
import { traceHeader } from '../engine/comparison/comparison-files.js';
import { rerunForFixture } from '../engine/comparison/fixture-bundle.js';
import { sealReport } from '../engine/comparison/fixture-integrity.js';
import { writeFixtureFolder, type FixtureTargetWords } from './fixture/write-fixture-folder.js';
import { parityCommand } from './parity-command.js';
import { shareableFiles, withFigureLinks, type ShareableInput } from './report-html/shareable-files.js';
import type { KeptTraces } from './history-store.js';

/** How a refusal names the studio's target and its replace (the export dialog's Replace button). */
export const EXPORT_FOLDER: FixtureTargetWords = { target: 'the export folder', allowReplace: 'choose Replace' };

/**
 * Writes a history entry as a fixture folder, atomically, and refuses an existing folder unless
 * `overwrite` (and then only a fixture folder). Audio is float32 WAV so the fixture is lossless.
 * A synthesized A/B comparison gets what `parity compare --out` writes (a.jsonl, b.jsonl, report.json
 * sealed with every file's sha256), so `parity gate` re-runs it; its saved drill-down goes into
 * report.json as `drill` (as `compare --drill` writes it, so the gate re-runs that too). A saved ABX
 * listening test is written as abx.json (sealed with the rest; the gate checks it is intact and does
 * not interpret it). Imported traces kept with the entry (`traces`) are written as a.jsonl/b.jsonl
 * with a sealed report.json, as `parity compare-trace --out` does, so the gate re-checks those too.
 * Documented in docs/forensics.md, "Fixtures exported from the studio".
 */

export async function exportFixture(entry: ComparisonResult, dir: string, overwrite: boolean, traces?: KeptTraces): Promise<{ dir: string; files: string[] }> {
  const files: Record<string, Uint8Array | string> = {};
  const { a, b } = entry;
  if (a) files['a.wav'] = encodeWav([a.samples], a.sampleRate, 'float32');
  if (b) files['b.wav'] = encodeWav([b.samples], b.sampleRate, 'float32');
  if (a && b) files['diff.wav'] = diffWav(a, b, entry.historyId);
  // report.html and the PNGs (shareable-files.ts): the takes as the WAVs hold them, A − B by the same function.
  const audio = a && b ? { a: a.samples, b: b.samples, diff: difference(a.samples, b.samples), sampleRate: a.sampleRate } : undefined;
  let shared: Omit<ShareableInput, 'markdown'>;
  if (entry.abx) files['abx.json'] = JSON.stringify(entry.abx, null, 2) + '\n';
  const profiles = ComparisonReport.safeParse(entry.report);
  const imported = TraceComparisonReport.safeParse(entry.report);
  if (profiles.success) {
    // The bundle recorded as the gate finds it from this folder (fixture-bundle.ts).
    const rerun = rerunForFixture(profiles.data.rerun, dir);
    const report: ComparisonReport = entry.drill ? { ...profiles.data, drill: entry.drill, rerun: { ...rerun, drill: rerun.drill ?? {} } } : { ...profiles.data, rerun };
    files['a.jsonl'] = sideTrace(report, report.a);
    files['b.jsonl'] = sideTrace(report, report.b, report.rerun.teacherForce ? `A: ${report.a.profile}` : undefined);
    shared = { report, frameRate: report.a.frameRate, audio };
    files['report.md'] = withFigureLinks(reportMarkdown(report, dir, parityCommand()), shared);
    files['report.json'] = sealReport(report, files);
  } else if (imported.success && traces) {
    // As `parity compare-trace --out` writes it: the trace files as imported, sealed with the rest.
    files['a.jsonl'] = traces.a;
    files['b.jsonl'] = traces.b;
    if (traces.modules) {
      files['a.modules.safetensors'] = traces.modules.a;
      files['b.modules.safetensors'] = traces.modules.b;
    }
    shared = { report: imported.data, frameRate: imported.data.traces.a.header.frameRate, audio };
    files['report.md'] = withFigureLinks(traceReportMarkdown(imported.data, traces, dir), shared);
    files['report.json'] = sealReport(imported.data, files);
  } else {
    // Imported WAVs, or traces saved before the history kept them: nothing to re-run, so the report
    // is written as it was measured.
    const measured = ParityReport.safeParse(entry.report);
    if (!measured.success) throw new InputError(`history entry ${entry.historyId} has neither audio metrics nor its traces kept (imported before the history kept traces): import the traces again to export them`, 'historyId');
    shared = { report: measured.data, frameRate: null, audio };
    files['report.md'] = withFigureLinks(reportMarkdown(measured.data, dir, parityCommand()), shared);
    files['report.json'] = stringifyReport(measured.data);
  }
  // Views of the sealed files, added after the seal, as parity compare --out adds them.
  Object.assign(files, await shareableFiles({ ...shared, markdown: files['report.md'] as string }));
  await writeFixtureFolder(dir, files, { force: overwrite, words: EXPORT_FOLDER });
  return { dir, files: Object.keys(files).sort() };
}

/** report.md of an imported trace pair, byte for byte what `compare-trace --out dir` writes for it. */
function traceReportMarkdown(report: TraceComparisonReport, traces: KeptTraces, dir: string): string {
  const steps = { a: readTrace(traces.a, report.traces.a.file).steps.length, b: readTrace(traces.b, report.traces.b.file).steps.length };
  return renderComparisonMarkdown(traceComparisonView(report, steps, dir, parityCommand()));
}

/**
 * A − B as `compareProfiles` computes it (`difference`). Its `diff` is not reused: the history keeps
 * only the two takes and the report (the worker's ProfileComparison is gone by export time, and
 * imported WAVs never had one), so the difference is taken again from the takes, by the same function.
 */
function diffWav(a: Audio, b: Audio, id: string): Uint8Array {
  if (a.sampleRate !== b.sampleRate) throw new InputError(`history entry ${id}: A is ${a.sampleRate} Hz, B is ${b.sampleRate} Hz`);
  return encodeWav([difference(a.samples, b.samples)], a.sampleRate, 'float32');
}

/**
 * One side's step trace in `tts-parity-trace/1`, the header as `parity compare --out` writes it
 * (`traceHeader`; B of a teacher-forced comparison says so, as comparison-files.ts writes it).
 */
function sideTrace(report: ComparisonReport, side: ComparisonSide, teacherForced?: string): string {
  const { q, frameRate, sampleRate, profile } = side;
  const header = traceHeader({ q, frameRate, sampleRate, profile, seed: report.rerun.seed, text: report.rerun.text });
  return writeTrace(teacherForced === undefined ? header : { ...header, teacherForced }, side.steps);
}
