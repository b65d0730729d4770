import { InvalidArgumentError } from 'commander';
import type { Command } from '@commander-js/extra-typings';
import { stringifyReport } from '../../common/report/json-number.js';
import { ParityReport } from '../../common/report/report.js';
import { compareWavs } from '../../common/wav/compare-wavs.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { readWavInput, reportTime } from '../../engine/comparison/read-inputs.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { shareableFiles, withFigureLinks } from '../../host/report-html/shareable-files.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { warnIfNoReportPage } from '../report-page-warning.js';
import { OUT_DIR, wroteFolderLine } from '../write-output.js';
import { renderMarkdownReport, renderTextSummary } from '../../common/report/format/report-summary.js';
import { processSpectralRunner } from '../../host/spectral/process-spectral-thread.js';
import { printOut } from '../print.js';

export function registerCompareWav(program: Command): void {
  program
    .command('compare-wav')
    .description('compare two WAV files: correlation, lag, null depth, loudness, spectral distance')
    .argument('<a>', 'WAV file A (the reference)')
    .argument('<b>', 'WAV file B (compared against A)')
    .option('--out <dir>', 'write a.wav, b.wav, diff.wav, report.json, report.md (with PNG figures) and report.html into this new folder')
    .option('--json', "print only the report's metrics as one JSON object")
    .option('--max-lag-ms <ms>', 'cross-correlation lag search range, ± milliseconds (default 50)', parseMaxLag)
    .option('--force', 'replace the --out folder if it exists')
    .action(
      action('compare-wav', async (pathA: string, pathB: string, options) => {
        if (options.out !== undefined) {
          await checkFixtureTarget(options.out, { force: options.force, words: OUT_DIR });
          warnIfNoReportPage();
        }
        exitOnInterrupt('compare-wav');
        const a = await readWavInput(pathA);
        const b = await readWavInput(pathB);
        const comparison = await compareWavs(a, b, { maxLagMs: options.maxLagMs, createdAt: reportTime(), spectral: processSpectralRunner() });
        const { report } = comparison;
        let written: string[] = [];
        if (options.out !== undefined) {
          const reportJson = stringifyReport(report);
          const checked = ParityReport.safeParse(JSON.parse(reportJson));
          if (!checked.success) throw new Error(`report.json does not match its schema: ${checked.error.message}`);
          const rate = report.metrics.sampleRate;
          const shared = { report, frameRate: null, audio: { a: comparison.a, b: comparison.b, diff: comparison.diff, sampleRate: rate } };
          const markdown = withFigureLinks(renderMarkdownReport(report), shared);
          const files = {
            'a.wav': encodeWav([comparison.a], rate, 'float32'),
            'b.wav': encodeWav([comparison.b], rate, 'float32'),
            'diff.wav': encodeWav([comparison.diff], rate, 'float32'),
            'report.json': reportJson + '\n',
            'report.md': markdown,
            ...(await shareableFiles({ ...shared, markdown })),
          };
          await writeFixtureFolder(options.out, files, { force: options.force, words: OUT_DIR });
          written = Object.keys(files);
        }
        if (options.json) {
          printOut(stringifyReport(report.metrics) + '\n');
        } else {
          printOut(renderTextSummary(report));
          if (options.out !== undefined) printOut(`\n${wroteFolderLine(options.out, written)}`);
        }
      }),
    );
}

function parseMaxLag(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds');
  return value;
}
