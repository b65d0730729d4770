import type { Command } from '@commander-js/extra-typings';
import { compareTraces, type TraceSide } from '../../common/forensics/compare-traces.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { TraceComparisonReport } from '../../common/report/comparison-report.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { difference } from '../../engine/comparison/compare-profiles.js';
import { sealReport } from '../../engine/comparison/fixture-integrity.js';
import { readFileChecked, readTraceFile, readWavFile, reportTime } from '../../engine/comparison/read-inputs.js';
import { InputError } from '../../common/errors.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { OUT_DIR, wroteFolderLine } from '../write-output.js';
import { addVerdictOptions, failOnStatus, tolerancesFrom } from './compare-options.js';
import { renderComparisonMarkdown } from '../../common/report/comparison-markdown.js';
import { traceComparisonView } from '../../common/report/trace-comparison-view.js';
import { renderComparisonText } from './comparison-format.js';

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
    .option('--json', 'print the report as JSON instead of the summary');
  addVerdictOptions(command).action(
    action('compare-trace', async (pathA: string, pathB: string, o) => {
        if ((o.wavA === undefined) !== (o.wavB === undefined)) throw new InputError('give both --wav-a and --wav-b, or neither');
        if (o.out !== undefined) await checkFixtureTarget(o.out, { force: o.force, words: OUT_DIR });
        exitOnInterrupt('compare-trace');
        const side = async (file: string, wav: string | undefined): Promise<TraceSide> => ({
          file,
          trace: await readTraceFile(file, { wavHint: 'give WAVs with --wav-a/--wav-b' }),
          audio: wav === undefined ? undefined : await readWavFile(wav),
        });
        const [a, b] = [await side(pathA, o.wavA), await side(pathB, o.wavB)];
        const report = await compareTraces(a, b, { createdAt: reportTime(), tolerances: tolerancesFrom(o), maxLagMs: o.maxLagMs });
        for (const warning of report.warnings ?? []) process.stderr.write(`warning: ${warning}\n`);
        // The same view as the studio's export of an imported trace pair: with --out, its reproduce command reads the stored copies.
        const view = traceComparisonView(report, { a: a.trace.steps.length, b: b.trace.steps.length }, o.out);
        let written: string[] = [];
        if (o.out !== undefined) {
          const files: Record<string, Uint8Array | string> = {
            'a.jsonl': await readFileChecked(pathA),
            'b.jsonl': await readFileChecked(pathB),
          };
          if (a.audio && b.audio) {
            const rate = a.trace.header.sampleRate;
            files['a.wav'] = encodeWav([a.audio.signal], rate, 'float32');
            files['b.wav'] = encodeWav([b.audio.signal], rate, 'float32');
            files['diff.wav'] = encodeWav([difference(a.audio.signal, b.audio.signal)], rate, 'float32');
          }
          files['report.md'] = renderComparisonMarkdown(view);
          const reportJson = sealReport(report, files);
          TraceComparisonReport.parse(JSON.parse(reportJson));
          await writeFixtureFolder(o.out, { ...files, 'report.json': reportJson }, { force: o.force, words: OUT_DIR });
          written = [...Object.keys(files), 'report.json'];
        }
        process.stdout.write(o.json ? stringifyReport(report) + '\n' : renderComparisonText(view));
        if (o.out !== undefined && !o.json) process.stdout.write(`\n${wroteFolderLine(o.out, written)}`);
        process.exitCode = failOnStatus(report.verdict, o.failOn);
      }),
  );
}
