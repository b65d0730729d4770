import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Command } from '@commander-js/extra-typings';
import { stringifyReport } from '../../common/report/json-number.js';
import { benchAnalysis } from '../bench/analysis-bench.js';
import type { BenchResults } from '../bench/bench-results.js';
import { renderBenchTable } from '../bench/bench-table.js';
import { machineInfo } from '../bench/machine-info.js';
import { action } from '../fail.js';

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('time the analysis (two 60 s signals; 10 min loudness vs ffmpeg ebur128) on this machine')
    .option('--json', 'print the results as one JSON object on stdout (the table goes to stderr)')
    .option('--out <file>', 'also write the JSON results to this file (its folder is created)')
    .option('--runs <n>', 'timed runs per measurement, after one warm-up (default 5)', parseRuns)
    .action(
      action('bench', async (options) => {
        const progress = (what: string) => process.stderr.write(`bench: ${what}…\n`);
        const analysis = await benchAnalysis({ runs: options.runs, onStep: progress });
        const results: BenchResults = {
          schema: 'tts-parity-bench/1',
          createdAt: new Date().toISOString(),
          machine: machineInfo(),
          analysis,
        };
        const json = stringifyReport(results);
        if (options.out !== undefined) {
          await mkdir(dirname(options.out), { recursive: true });
          // Written beside and renamed, so a reader never sees half a file.
          await writeFile(`${options.out}.tmp`, json + '\n');
          await rename(`${options.out}.tmp`, options.out);
        }
        const table = renderBenchTable(results);
        if (options.json) {
          process.stderr.write(table);
          process.stdout.write(json + '\n');
        } else {
          process.stdout.write(table);
        }
        if (options.out !== undefined) process.stderr.write(`bench: wrote ${options.out}\n`);
      }),
    );
}

function parseRuns(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new InvalidArgumentError(`--runs must be an integer from 1 to 100, found "${text}"`);
  }
  return n;
}
