import { readFile, stat } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import type { Command } from '@commander-js/extra-typings';
import { InputError, WavError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { ParityReport } from '../../common/report/report.js';
import { compareWavs, type WavInput } from '../../common/wav/compare-wavs.js';
import { decodeWav } from '../../common/wav/decode-wav.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { OUT_DIR } from '../write-output.js';
import { renderMarkdownReport, renderTextSummary } from '../../common/report/format/report-summary.js';

/** Node cannot hold a larger file in one buffer; no WAV we compare comes near it. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

export function registerCompareWav(program: Command): void {
  program
    .command('compare-wav')
    .description('compare two WAV files: correlation, lag, null depth, loudness, spectral distance')
    .argument('<a>', 'WAV file A (the reference)')
    .argument('<b>', 'WAV file B (compared against A)')
    .option('--out <dir>', 'write a.wav, b.wav, diff.wav, report.json and report.md into this new folder')
    .option('--json', "print only the report's metrics as one JSON object")
    .option('--max-lag-ms <ms>', 'cross-correlation lag search range, ± milliseconds (default 50)', parseMaxLag)
    .option('--force', 'replace the --out folder if it exists')
    .action(
      action('compare-wav', async (pathA: string, pathB: string, options) => {
        if (options.out !== undefined) await checkFixtureTarget(options.out, { force: options.force, words: OUT_DIR });
        exitOnInterrupt('compare-wav');
        const a = await readWav(pathA);
        const b = await readWav(pathB);
        const comparison = await compareWavs(a, b, { maxLagMs: options.maxLagMs, createdAt: createdAt() });
        const { report } = comparison;
        if (options.out !== undefined) {
          const reportJson = stringifyReport(report);
          const checked = ParityReport.safeParse(JSON.parse(reportJson));
          if (!checked.success) throw new Error(`report.json does not match its schema: ${checked.error.message}`);
          const rate = report.metrics.sampleRate;
          await writeFixtureFolder(
            options.out,
            {
              'a.wav': encodeWav([comparison.a], rate, 'float32'),
              'b.wav': encodeWav([comparison.b], rate, 'float32'),
              'diff.wav': encodeWav([comparison.diff], rate, 'float32'),
              'report.json': reportJson + '\n',
              'report.md': renderMarkdownReport(report),
            },
            { force: options.force, words: OUT_DIR },
          );
        }
        if (options.json) {
          process.stdout.write(stringifyReport(report.metrics) + '\n');
        } else {
          process.stdout.write(renderTextSummary(report));
          if (options.out !== undefined) process.stdout.write(`\nwrote ${options.out}/ (a.wav, b.wav, diff.wav, report.json, report.md)\n`);
        }
      }),
    );
}

function parseMaxLag(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds');
  return value;
}

async function readWav(path: string): Promise<WavInput> {
  let bytes: Uint8Array;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path}: not a file`, path);
    if (info.size > MAX_FILE_BYTES) throw new WavError(path, `file is ${info.size} bytes, larger than the 2 GiB that can be read`);
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof InputError || error instanceof WavError) throw error;
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
  return { path, decoded: decodeWav(bytes, path) };
}

/** SOURCE_DATE_EPOCH (seconds) pins createdAt so that the same inputs give the same report bytes. */
function createdAt(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString();
  return new Date().toISOString();
}
