import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { caseLine, headerLine } from '../../common/sweep/shard-lines.js';
import { caseKey, SWEEP_SCHEMA, type SweepCase } from '../../common/sweep/sweep-case.js';
import { shardFileName } from '../../host/sweep/shard-file.js';

/** What the sweep runs compare: the pair and prompts of docs/sweeps.md's Speed section. */
const A = 'graph';
const B = 'graph,fault=stale-feedback@2';
const RATE_CASES = 20;
const MEMORY_CASES = [20, 100] as const;
const MERGE_CASES = 1000;
const MERGE_SHARDS = 10;
/** GNU time: the peak RSS of the largest process in the tree it waits for (wait4's ru_maxrss). */
const GNU_TIME = '/usr/bin/time';

/** `parity sweep` at scale (docs/sweeps.md, Speed): rate by --jobs, peak memory by corpus size, merge time. */
export interface SweepBench {
  a: string;
  b: string;
  /**
   * Cases per minute of a whole `parity sweep` process over `rateCases` prompts (Node start, bundle open
   * and worker start-up included): the faster of `rateRuns` runs per side, run interleaved.
   */
  casesPerMinute: { jobs1: number; jobs2: number };
  rateCases: number;
  rateRuns: number;
  /** Peak RSS of the largest process of a `--jobs 1` shard run over `Prompt N.` prompts, MB, per corpus size; null without GNU time (/usr/bin/time). */
  peakRssMb: { cases: number; mb: number | null }[];
  /** `parity sweep merge DIR --out OUT --worst 0` over synthesized case lines (no engine), Node's start included. Target < 2000 ms. */
  merge: { cases: number; shards: number; lineBytes: number; medianMs: number; runs: number };
  /** This whole entry's wall time, ms (kept to about a minute on 2 cores). */
  benchMs: number;
}

const cli = fileURLToPath(new URL('../main.js', import.meta.url));

/** The rate runs' prompts (about 55 characters), or the memory runs' short ones (a case takes a third of the time). */
function corpus(n: number, short: boolean): string {
  return Array.from({ length: n }, (_, i) => (short ? `Prompt ${i}.\n` : `Prompt ${i}: the quick brown fox jumps over the lazy dog.\n`)).join('');
}

/** Runs the CLI (under GNU time when it is there); returns its wall time and peak RSS. */
async function runCli(args: string[], root: string): Promise<{ ms: number; peakMb: number | null }> {
  const timed = existsSync(GNU_TIME);
  const rssFile = join(root, 'rss.txt');
  const [file, argv] = timed ? [GNU_TIME, ['-f', '%M', '-o', rssFile, process.execPath, cli, ...args]] : [process.execPath, [cli, ...args]];
  const start = performance.now();
  await promisify(execFile)(file, argv, { maxBuffer: 16 << 20 });
  const ms = performance.now() - start;
  // %M is in KiB.
  return { ms, peakMb: timed ? Number((await readFile(rssFile, 'utf8')).trim()) / 1024 : null };
}

async function sweep(root: string, name: string, cases: number, jobs: number, short = false): Promise<{ ms: number; peakMb: number | null }> {
  const file = join(root, `${name}.txt`);
  await writeFile(file, corpus(cases, short));
  return runCli(['sweep', '--corpus', file, '--a', A, '--b', B, '--jobs', String(jobs), '--out', join(root, name)], root);
}

/** A plausible case line: mostly identical, every 4th diverged at step 2–4, correlations spread. */
function syntheticCase(index: number): SweepCase {
  const diverged = index % 4 === 0;
  const r = ((index * 7919) % 1000) / 1000;
  return {
    index,
    id: `p${index}`,
    seed: 0,
    text: `Prompt ${index}: the quick brown fox jumps over the lazy dog.`,
    verdict: diverged ? 'diverged' : 'identical',
    firstStep: diverged ? 2 + (index % 3) : null,
    stage: diverged ? 'talker-logits' : null,
    codebook: diverged ? 0 : null,
    reconverges: diverged ? false : null,
    flip: diverged ? 'real' : null,
    correlation: diverged ? r * 0.5 : 1,
    nullDepthDb: diverged ? 3 + r : Number.POSITIVE_INFINITY,
    loudnessDeltaLU: diverged ? r - 0.5 : 0,
    lsdDb: diverged ? 10 * r : 0,
    mcdDb: diverged ? 4 * r : 0,
    timings: { aMs: 120, bMs: 110, wallMs: 800 },
  };
}

/** Writes MERGE_CASES synthesized cases as MERGE_SHARDS shard files; returns their total bytes. */
async function writeShards(dir: string): Promise<number> {
  await mkdir(dir);
  let bytes = 0;
  for (let s = 1; s <= MERGE_SHARDS; s++) {
    const cases = Array.from({ length: MERGE_CASES }, (_, i) => i).filter((i) => i % MERGE_SHARDS === s - 1).map(syntheticCase);
    const header = headerLine({
      schema: SWEEP_SCHEMA,
      mode: 'profiles',
      a: A,
      b: B,
      bundle: 'demo',
      sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 },
      corpusSha256: '0'.repeat(64),
      totalCases: MERGE_CASES,
      shard: { index: s, count: MERGE_SHARDS },
      planned: cases.map(caseKey),
    });
    const path = join(dir, shardFileName({ index: s, count: MERGE_SHARDS }));
    await writeFile(path, header + cases.map(caseLine).join(''));
    bytes += (await stat(path)).size;
  }
  return bytes;
}

function median(values: number[]): number {
  const v = [...values].sort((x, y) => x - y);
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

export async function benchSweep(onStep: (what: string) => void, mergeRuns = 3): Promise<SweepBench> {
  const root = await mkdtemp(join(tmpdir(), 'parity-bench-sweep-'));
  const perMinute = (ms: number) => RATE_CASES / (ms / 60_000);
  const started = performance.now();
  try {
    onStep(`sweep: ${RATE_CASES} cases of ${A} vs ${B}, --jobs 1 and --jobs 2 in the order 1, 2, 2, 1`);
    // Interleaved so that a change of load on a shared machine hits both sides; each side's faster run counts.
    const runs: Record<1 | 2, { ms: number; peakMb: number | null }[]> = { 1: [], 2: [] };
    for (const [n, jobs] of ([1, 2, 2, 1] as const).entries()) runs[jobs].push(await sweep(root, `rate-${n}-jobs${jobs}`, RATE_CASES, jobs));
    const fastest = (jobs: 1 | 2) => Math.min(...runs[jobs].map((r) => r.ms));
    const peakRssMb: SweepBench['peakRssMb'] = [];
    for (const cases of MEMORY_CASES) {
      onStep(`sweep: peak memory of a --jobs 1 shard of ${cases} short prompts`);
      peakRssMb.push({ cases, mb: (await sweep(root, `memory-${cases}`, cases, 1, true)).peakMb });
    }
    onStep(`sweep: merge of ${MERGE_CASES} synthesized cases in ${MERGE_SHARDS} shards, ${mergeRuns} runs`);
    const shards = join(root, 'merge-shards');
    const lineBytes = await writeShards(shards);
    const times: number[] = [];
    for (let i = 0; i < mergeRuns; i++) times.push((await runCli(['sweep', 'merge', shards, '--out', join(root, `merged-${i}`), '--worst', '0'], root)).ms);
    // A merge that dropped cases would be fast for the wrong reason.
    const merged = (JSON.parse(await readFile(join(root, 'merged-0', 'sweep.json'), 'utf8')) as { cases: unknown[] }).cases.length;
    if (merged !== MERGE_CASES) throw new Error(`sweep bench: the merge holds ${merged} cases, expected ${MERGE_CASES}`);
    return {
      a: A,
      b: B,
      casesPerMinute: { jobs1: perMinute(fastest(1)), jobs2: perMinute(fastest(2)) },
      rateCases: RATE_CASES,
      rateRuns: runs[1].length,
      peakRssMb,
      merge: { cases: MERGE_CASES, shards: MERGE_SHARDS, lineBytes, medianMs: median(times), runs: mergeRuns },
      benchMs: performance.now() - started,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
