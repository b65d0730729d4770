import { InvalidArgumentError } from 'commander';
import type { Command } from '@commander-js/extra-typings';
import { stringifyReport } from '../../common/report/json-number.js';
import { Engine, resolveDemoBundle } from '../../engine/engine.js';
import { checkOutputFile, writeOutputFiles } from '../../host/fs/output-files.js';
import { benchAnalysis } from '../bench/analysis-bench.js';
import type { BenchResults } from '../bench/bench-results.js';
import { renderBenchTable } from '../bench/bench-table.js';
import { benchEngine } from '../bench/engine-bench.js';
import { renderEngineTable } from '../bench/engine-table.js';
import { benchLazyTable } from '../bench/lazy-table-bench.js';
import { benchMemory } from '../bench/memory-bench.js';
import { benchReport } from '../bench/report-bench.js';
import { benchSweep } from '../bench/sweep-bench.js';
import { benchWavImportMemory } from '../bench/wav-import-memory.js';
import { benchCompareTraceMemory } from '../bench/compare-trace-memory.js';
import { machineInfo } from '../bench/machine-info.js';
import { action } from '../fail.js';
import { printOut, printErr } from '../print.js';

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(
      'time the engine on the demo bundle (eager, graph, graph,vocoder=stream, graph,cache=recompute, interleaved; memory over 20 syntheses; RSS of opening a bundle with a 151936 × 1024 float16 embedding table file), parity sweep (cases/min with --jobs 1 and 2, peak memory for 20 and 100 cases, a 1,000-case merge) and the analysis (two 60 s signals; 10 min loudness vs ffmpeg ebur128)',
    )
    .option('--json', 'print the results as one JSON object on stdout (the table goes to stderr)')
    .option('--out <file>', 'also write the JSON results to this file (its folder is created; an existing file only with --force)')
    .option('--force', 'replace the --out file if it exists')
    .option('--runs <n>', 'analysis: timed runs per measurement, after one warm-up (default 5; the 60 s pair at least 15)', parseRuns)
    .option('--reps <n>', 'engine: interleaved rounds of all profiles, after 2 warm-up rounds (default 8)', parseRuns)
    .option('--bundle <dir>', 'engine: bundle folder (default: the built-in demo bundle)')
    .option('--no-engine', 'skip the engine, memory and sweep bench (analysis only)')
    .option('--no-memory', 'skip the analysis memory bench (WAV-pair imports of 2 × 20 and 2 × 50 MB pcm16 and 2 × 50 MB float32, compare-trace of 20,000- and 80,000-step trace pairs, in child processes)')
    .option('--no-sweep', 'skip the sweep bench (about a minute of parity sweep runs and merges)')
    .action(
      action('bench', async (options) => {
        // Refused before minutes of measuring, not after.
        const out = options.out === undefined ? undefined : { flag: '--out', path: options.out };
        if (out) await checkOutputFile(out, { force: options.force });
        const progress = (what: string) => printErr(`bench: ${what}…\n`);
        const engineResults = options.engine ? await runEngineBench(options.bundle, options.reps, progress) : {};
        // After the engine bench has closed its engine: the sweep runs are child processes of their own.
        const sweep = options.engine && options.sweep ? await benchSweep(progress) : undefined;
        let analysisMemory: BenchResults['analysisMemory'];
        if (options.memory) {
          progress('WAV-pair import peak memory, 2 × 20 and 2 × 50 MB pcm16, 2 × 50 MB float32, in child processes');
          const wavImport = benchWavImportMemory([
            { fileMb: 20, format: 'pcm16' },
            { fileMb: 50, format: 'pcm16' },
            { fileMb: 50, format: 'float32' },
          ]);
          progress('compare-trace peak memory, 20,000- and 80,000-step trace pairs, in child processes');
          analysisMemory = { wavImport, compareTrace: await benchCompareTraceMemory([20_000, 80_000]) };
        }
        const analysis = await benchAnalysis({ runs: options.runs, onStep: progress });
        progress('report.html and PNG figures, a 60 s 24 kHz pair');
        const report = await benchReport(Math.max(1, options.runs ?? 5));
        const results: BenchResults = {
          schema: 'tts-parity-bench/1',
          createdAt: new Date().toISOString(),
          machine: machineInfo(),
          ...engineResults,
          ...(sweep ? { sweep } : {}),
          ...(analysisMemory ? { analysisMemory } : {}),
          analysis,
          report,
        };
        const json = stringifyReport(results);
        if (out) await writeOutputFiles([{ ...out, data: json + '\n' }], { force: options.force });
        const table = renderEngineTable(results) + renderBenchTable(results);
        if (options.json) {
          printErr(table);
          printOut(json + '\n');
        } else {
          printOut(table);
        }
        if (options.out !== undefined) printErr(`bench: wrote ${options.out}\n`);
      }),
    );
}

async function runEngineBench(bundle: string | undefined, reps: number | undefined, progress: (what: string) => void): Promise<Partial<BenchResults>> {
  const engine = await Engine.open(bundle ?? (await resolveDemoBundle()));
  try {
    const { meta, profiles, ratios } = await benchEngine(engine, { repetitions: reps, onStep: progress });
    progress('memory, 20 syntheses of graph with a full GC between readings');
    const memory = await benchMemory(engine, 'graph', 20);
    progress('lazy embedding table: opening a bundle with a 151936 × 1024 float16 table file, in child processes');
    const lazyTable = await benchLazyTable();
    return { engine: { ...meta, bundleHash: engine.info().hash }, profiles, ratios, memory, lazyTable };
  } finally {
    await engine.close();
  }
}

function parseRuns(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new InvalidArgumentError(`must be an integer from 1 to 100, found "${text}"`);
  }
  return n;
}
