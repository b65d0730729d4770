import type { Command } from '@commander-js/extra-typings';
import type { TraceSideHeader } from '../../common/forensics/compare-traces.js';
import { reportJsonWithRows } from '../../common/report/report-json-rows.js';
import { TraceComparisonReport } from '../../common/report/comparison-report.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { difference } from '../../engine/comparison/compare-profiles.js';
import { compareTraceFiles } from '../../engine/comparison/compare-trace-files.js';
import { sealReportStream, sha256File, sha256Hex } from '../../engine/comparison/fixture-integrity.js';
import { readFileChecked, readWavFile, reportTime } from '../../engine/comparison/read-inputs.js';
import { scanTrace } from '../../engine/comparison/stream-trace.js';
import { InputError } from '../../common/errors.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { parityCommand } from '../../host/parity-command.js';
import { shareableFiles, withFigureLinks } from '../../host/report-html/shareable-files.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { warnIfNoReportPage } from '../report-page-warning.js';
import { OUT_DIR, writeStdoutStream, wroteFolderLine } from '../write-output.js';
import { addVerdictOptions, failOnStatus, nonNegative, tolerancesFrom } from './compare-options.js';
import { renderComparisonMarkdown } from '../../common/report/comparison-markdown.js';
import { traceComparisonView } from '../../common/report/trace-comparison-view.js';
import { renderComparisonText } from './comparison-format.js';
import { DEFAULT_MODULE_TOLERANCE, drillModules } from '../../common/forensics/module-drill.js';
import { openTraceSidecars } from '../../engine/foreign-drill/trace-sidecars.js';
import { processSpectralRunner } from '../../host/spectral/process-spectral-thread.js';
import { printOut, printErr } from '../print.js';

export function registerCompareTrace(program: Command): void {
  const command = program
    .command('compare-trace')
    .description('localise where two tts-parity-trace/1 files (any engine) part; with their WAVs, measure the audio too')
    .argument('<a>', 'trace A (JSON Lines, docs/trace-format.md)')
    .argument('<b>', 'trace B')
    .option('--wav-a <file>', "A's audio")
    .option('--wav-b <file>', "B's audio")
    .option('--out <dir>', 'write report.json, report.md, a.jsonl, b.jsonl (and a.wav, b.wav, diff.wav) into this new folder')
    .option('--force', 'replace the --out folder if it exists')
    .option('--json', 'print the report as JSON instead of the summary')
    .option('--modules-a <file>', "A's module sidecar, instead of the one its header names (docs/python-modules.md)")
    .option('--modules-b <file>', "B's module sidecar")
    .option('--no-modules', 'ignore the module sidecars the headers name')
    .option('--drill-tol <x>', `per-element absolute tolerance of the module drill-down (default ${DEFAULT_MODULE_TOLERANCE.abs})`, nonNegative('a tolerance'))
    .option('--drill-rel-tol <x>', `per-element relative tolerance of the module drill-down (default ${DEFAULT_MODULE_TOLERANCE.rel})`, nonNegative('a tolerance'));
  addVerdictOptions(command).action(
    action('compare-trace', async (pathA: string, pathB: string, o) => {
        if ((o.wavA === undefined) !== (o.wavB === undefined)) throw new InputError('give both --wav-a and --wav-b, or neither');
        if (o.out !== undefined) {
          await checkFixtureTarget(o.out, { force: o.force, words: OUT_DIR });
          warnIfNoReportPage();
        }
        exitOnInterrupt('compare-trace');
        // Each trace is checked whole (A, then A's WAV, then B...) before anything is compared, so the first
        // problem reported is the one the whole-file reader reported; the steps are then read again as a stream.
        const side = async (file: string, wav: string | undefined): Promise<TraceSideHeader> => ({
          ...(await scanTrace(file, { wavHint: 'give WAVs with --wav-a/--wav-b' })),
          audio: wav === undefined ? undefined : await readWavFile(wav),
        });
        const [a, b] = [await side(pathA, o.wavA), await side(pathB, o.wavB)];
        const sidecars = o.modules ? openTraceSidecars(a, b, { a: o.modulesA, b: o.modulesB }) : undefined;
        const { report, rows } = await compareTraceFiles(a, b, { createdAt: reportTime(), tolerances: tolerancesFrom(o), maxLagMs: o.maxLagMs, spectral: processSpectralRunner() });
        if (sidecars?.warning) report.warnings = [...(report.warnings ?? []), sidecars.warning];
        if (sidecars?.pair) {
          const tolerance = { abs: o.drillTol ?? DEFAULT_MODULE_TOLERANCE.abs, rel: o.drillRelTol ?? DEFAULT_MODULE_TOLERANCE.rel };
          try {
            report.moduleDrill = drillModules(report.divergence.firstStep, sidecars.pair.a, sidecars.pair.b, tolerance);
          } finally {
            sidecars.close();
          }
        }
        for (const warning of report.warnings ?? []) printErr(`warning: ${warning}\n`);
        // The same view as the studio's export of an imported trace pair: with --out, its reproduce command reads the stored copies.
        const view = traceComparisonView(report, { a: a.steps, b: b.steps }, o.out, parityCommand());
        const reportText = (r: Record<string, unknown>) => reportJsonWithRows(r as TraceComparisonReport, rows());
        let written: string[] = [];
        if (o.out !== undefined) {
          const files: Record<string, Uint8Array | string> = {};
          if (report.moduleDrill) {
            // Stored beside the traces so the reproduce command (--modules-a/-b) reads these copies.
            files['a.modules.safetensors'] = await readFileChecked(report.moduleDrill.sidecars.a);
            files['b.modules.safetensors'] = await readFileChecked(report.moduleDrill.sidecars.b);
          }
          const rate = a.header.sampleRate;
          const audio = a.audio && b.audio ? { a: a.audio.signal, b: b.audio.signal, diff: difference(a.audio.signal, b.audio.signal), sampleRate: rate } : undefined;
          if (audio) {
            files['a.wav'] = encodeWav([audio.a], rate, 'float32');
            files['b.wav'] = encodeWav([audio.b], rate, 'float32');
            files['diff.wav'] = encodeWav([audio.diff], rate, 'float32');
          }
          const shared = { report, frameRate: a.header.frameRate, audio };
          const markdown = withFigureLinks(renderComparisonMarkdown(view), shared);
          files['report.md'] = markdown;
          // The rows the report holds are checked here; the others are made by the same code as they are written.
          TraceComparisonReport.parse({ ...report, divergence: { ...report.divergence, steps: report.divergence.steps.filter(Boolean) } });
          const hashes: Record<string, string> = { 'a.jsonl': await sha256File(pathA), 'b.jsonl': await sha256File(pathB) };
          for (const [name, content] of Object.entries(files)) hashes[name] = sha256Hex(content);
          const reportJson = await sealReportStream(report, hashes, reportText);
          // report.html and the PNGs are views of the sealed files, added after the seal (docs/report-format.md).
          const views = await shareableFiles({ ...shared, markdown });
          const copies = { 'a.jsonl': { copyFrom: pathA }, 'b.jsonl': { copyFrom: pathB } };
          await writeFixtureFolder(o.out, { ...copies, ...files, 'report.json': { pieces: reportJson }, ...views }, { force: o.force, words: OUT_DIR });
          written = [...Object.keys(copies), ...Object.keys(files), 'report.json', ...Object.keys(views)];
        }
        if (o.json) await writeStdoutStream(reportText(report), '\n');
        else printOut(renderComparisonText(view));
        if (o.out !== undefined && !o.json) printOut(`\n${wroteFolderLine(o.out, written)}`);
        process.exitCode = failOnStatus(report.verdict, o.failOn);
      }),
  );
}
