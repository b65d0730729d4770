import type { Command } from '@commander-js/extra-typings';
import { InvalidArgumentError } from 'commander';
import { InputError } from '../../common/errors.js';
import { parseSeedList } from '../../common/sweep/corpus.js';
import { resolveShard } from '../../common/sweep/shard.js';
import { caseKey, type SweepCase } from '../../common/sweep/sweep-case.js';
import { runEndpointShard, runEngineShard, runTraceShard, type ShardProgress } from '../../host/sweep/sweep-shard.js';
import { addAllowHostOption, endpointPair } from './endpoint-options.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { addSamplingOptions, samplingFrom } from './compare-options.js';
import { registerSweepGate } from './sweep-gate.js';
import { registerSweepMerge } from './sweep-merge.js';
import { printOut, printErr } from '../print.js';

function positiveInteger(what: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError(`expected ${what} (an integer >= 1), found "${text}"`);
    return Number(text);
  };
}

function caseLine(c: SweepCase, n: number, of: number): string {
  const where = c.firstStep === null ? '' : ` at step ${c.firstStep} (${c.stage ?? '?'})`;
  const corr = c.correlation === null ? '' : `, correlation ${Number.isFinite(c.correlation) ? c.correlation.toFixed(6) : String(c.correlation)}`;
  const what = c.verdict === 'error' ? `error: ${c.error ?? ''}` : `${c.verdict}${where}${corr}`;
  return `sweep: ${n}/${of} ${caseKey(c)}: ${what} (${(c.timings.wallMs / 1000).toFixed(2)} s)\n`;
}

export function registerSweep(program: Command): void {
  const sweep = program
    .command('sweep')
    .description('compare a corpus (prompts × seeds, profile A vs B) or two folders of traces, one JSON line per case, in shards any scheduler can run; then `sweep merge` and `sweep gate` (docs/sweeps.md)')
    .option('--corpus <file>', 'prompts: one per line, or JSON Lines {"id", "text", "seed"?}')
    .option('--traces <dirs...>', 'instead of --corpus: two folders of traces (NAME.jsonl, NAME.wav), paired by name')
    .option('--a <profile>', 'profile A, e.g. graph, or a speech endpoint (endpoint=URL,…; docs/deployments.md)')
    .option('--b <profile>', 'profile B, e.g. graph,fault=stale-feedback@2')
    .option('--seeds <list>', 'seeds for every prompt without its own, e.g. 0,1,5-7 (default 0)')
    .option('--bundle <dir>', 'bundle folder (default: the built-in demo bundle)')
    .option('--out <dir>', 'folder for the shard files (shared by all shards; created if missing; a re-run resumes)')
    .option('--shard <i/n>', 'run only the i-th of n shares of the cases (default: from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX with --shard-count, else all)')
    .option('--shard-count <n>', 'the number of shards, with a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)', positiveInteger('a shard count'))
    .option('--jobs <n>', 'engine workers run at once on this machine (default 1)', positiveInteger('a number of workers'));
  addAllowHostOption(addSamplingOptions(sweep)).action(
    action('sweep', async (o) => {
      if ((o.corpus === undefined) === (o.traces === undefined)) throw new InputError('give --corpus FILE (with --a and --b) or --traces DIR_A DIR_B');
      if (o.out === undefined) throw new InputError('give --out DIR, the folder for the shard files');
      const shard = resolveShard(o.shard, o.shardCount, process.env);
      const controller = new AbortController();
      let started: ShardProgress | undefined;
      let written = 0;
      exitOnInterrupt('sweep', () =>
        started ? `${started.skipped + written} of ${started.planned} cases are in ${started.file} (complete lines only); run the same command again to resume` : 'nothing was written',
      );
      const t0 = performance.now();
      const onStart = (p: ShardProgress) => {
        started = p;
        const resumed = p.skipped > 0 ? `, ${p.skipped} already there (resuming)` : '';
        printErr(`sweep: shard ${shard.index}/${shard.count} (${shard.from}): ${p.planned} cases → ${p.file}${resumed}\n`);
        if (p.cutTornLine) printErr(`sweep: ${p.file} ended in a line cut short by an interrupted write; it was removed and that case runs again\n`);
      };
      const onCase = (c: SweepCase) => {
        written++;
        printErr(caseLine(c, started!.skipped + written, started!.planned));
      };
      let done: ShardProgress;
      if (o.traces !== undefined) {
        if (o.traces.length !== 2) throw new InputError(`--traces takes two folders (A and B), found ${o.traces.length}`);
        if (o.a !== undefined || o.b !== undefined || o.seeds !== undefined || o.bundle !== undefined) throw new InputError('--a, --b, --seeds and --bundle are for --corpus sweeps; a trace sweep compares what the folders hold');
        done = await runTraceShard({ dirA: o.traces[0], dirB: o.traces[1], out: o.out, shard, signal: controller.signal, onStart, onCase });
      } else {
        if (o.a === undefined || o.b === undefined) throw new InputError('a --corpus sweep needs --a PROFILE and --b PROFILE');
        const endpoints = endpointPair(o.a, o.b);
        if (endpoints) {
          if (o.bundle !== undefined) throw new InputError('--bundle runs our engine; it does not apply to endpoint sides (the servers run their own)');
          if (o.jobs !== undefined) throw new InputError('--jobs runs engine workers; an endpoint sweep sends one case at a time (first-audio times and trace pickup need one request per server)');
        }
        done = endpoints ? await runEndpointShard({
          corpusFile: o.corpus!,
          seeds: o.seeds === undefined ? [0] : parseSeedList(o.seeds),
          ...endpoints,
          sampling: samplingFrom(o),
          allowHosts: o.allowHost,
          env: process.env,
          out: o.out,
          shard,
          signal: controller.signal,
          onStart,
          onCase,
        }) : await runEngineShard({
          corpusFile: o.corpus!,
          seeds: o.seeds === undefined ? [0] : parseSeedList(o.seeds),
          profileA: o.a,
          profileB: o.b,
          bundleDir: o.bundle,
          sampling: samplingFrom(o),
          jobs: o.jobs ?? 1,
          out: o.out,
          shard,
          signal: controller.signal,
          onStart,
          onCase,
        });
      }
      const minutes = (performance.now() - t0) / 60_000;
      const rate = written > 0 ? `; ${(written / minutes).toFixed(1)} cases/min with --jobs ${o.jobs ?? 1}` : '';
      printOut(`sweep: shard ${shard.index}/${shard.count}: wrote ${written} cases to ${done.file} (${done.skipped} already there)${rate}\n`);
    }),
  );
  registerSweepMerge(sweep, () => sweep.opts().out);
  registerSweepGate(sweep);
}
