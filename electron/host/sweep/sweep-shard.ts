import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Sampling } from '../../common/api/primitives.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { planCases, shardCases } from '../../common/sweep/plan.js';
import type { Shard } from '../../common/sweep/shard.js';
import { SWEEP_SCHEMA, type SweepCase, type SweepHeader } from '../../common/sweep/sweep-case.js';
import { readCorpusFile } from './read-corpus.js';
import { pairTraceFolders } from './pair-traces.js';
import { runEngineSweep } from './run-engine-sweep.js';
import { runEndpointSweep } from './run-endpoint-sweep.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import { runTraceSweep } from './run-trace-sweep.js';
import { openShardFile, type ShardFile } from './shard-file.js';

/** What a shard run reports as it goes and at its end. */
export interface ShardProgress {
  file: string;
  /** Cases this shard plans, and those already in its file when the run started (resumed). */
  planned: number;
  skipped: number;
  cutTornLine: boolean;
}

export interface ShardRunOptions {
  out: string;
  shard: Shard;
  signal?: AbortSignal;
  /** Called once the shard file is open, before any case runs. */
  onStart?: (p: ShardProgress) => void;
  onCase?: (c: SweepCase) => void;
}

export interface EngineShardRequest extends ShardRunOptions {
  corpusFile: string;
  seeds: number[];
  profileA: string;
  profileB: string;
  /** A bundle folder, or undefined for the demo bundle. */
  bundleDir?: string;
  sampling: Sampling;
  jobs: number;
}

function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

async function runShard<T extends { key: string }>(header: Omit<SweepHeader, 'planned'>, mine: T[], o: ShardRunOptions, run: (todo: T[], file: ShardFile) => Promise<void>): Promise<ShardProgress> {
  const file = await openShardFile(o.out, { ...header, planned: mine.map((c) => c.key) });
  const progress = { file: file.path, planned: mine.length, skipped: file.done.size, cutTornLine: file.cutTornLine };
  try {
    o.onStart?.(progress);
    await run(
      mine.filter((c) => !file.done.has(c.key)),
      file,
    );
  } finally {
    file.close();
  }
  return progress;
}

/**
 * Runs this shard of a profile sweep: reads and plans the corpus (prompts × seeds), opens the shard's
 * file under `out` (resuming it), and appends one line per case as each finishes.
 */
export async function runEngineShard(r: EngineShardRequest): Promise<ShardProgress> {
  // Bad profiles fail here, before any worker starts.
  const profileA = parseProfile(r.profileA).text;
  const profileB = parseProfile(r.profileB).text;
  const corpus = await readCorpusFile(r.corpusFile);
  const cases = planCases(corpus.prompts, r.seeds);
  const header: Omit<SweepHeader, 'planned'> = {
    schema: SWEEP_SCHEMA,
    mode: 'profiles',
    a: profileA,
    b: profileB,
    // Absolute, so that `sweep merge` re-runs the worst cases on it from any working folder.
    bundle: r.bundleDir === undefined ? 'demo' : resolve(r.bundleDir),
    sampling: r.sampling,
    corpusSha256: corpus.sha256,
    totalCases: cases.length,
    shard: { index: r.shard.index, count: r.shard.count },
  };
  return runShard(header, shardCases(cases, r.shard), r, (todo, file) =>
    runEngineSweep(todo, {
      bundleDir: r.bundleDir,
      profileA,
      profileB,
      sampling: r.sampling,
      jobs: r.jobs,
      signal: r.signal,
      onCase: (c) => {
        file.append(c);
        r.onCase?.(c);
      },
    }),
  );
}

export interface EndpointShardRequest extends ShardRunOptions {
  corpusFile: string;
  seeds: number[];
  a: EndpointSpec;
  b: EndpointSpec;
  sampling: Sampling;
  allowHosts: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

/** Runs this shard of an endpoint sweep: the corpus planned as a profile sweep's, each case sent to both servers. */
export async function runEndpointShard(r: EndpointShardRequest): Promise<ShardProgress> {
  const corpus = await readCorpusFile(r.corpusFile);
  const cases = planCases(corpus.prompts, r.seeds);
  const header: Omit<SweepHeader, 'planned'> = {
    schema: SWEEP_SCHEMA,
    mode: 'endpoints',
    a: r.a.text,
    b: r.b.text,
    sampling: r.sampling,
    corpusSha256: corpus.sha256,
    totalCases: cases.length,
    shard: { index: r.shard.index, count: r.shard.count },
  };
  return runShard(header, shardCases(cases, r.shard), r, (todo, file) =>
    runEndpointSweep(todo, {
      a: r.a,
      b: r.b,
      sampling: r.sampling,
      allowHosts: r.allowHosts,
      env: r.env,
      signal: r.signal,
      onCase: (c) => {
        file.append(c);
        r.onCase?.(c);
      },
    }),
  );
}

/** Runs this shard of a trace sweep over two folders of traces (and WAVs), paired by name. */
export async function runTraceShard(r: ShardRunOptions & { dirA: string; dirB: string }): Promise<ShardProgress> {
  const { pairs, unpaired } = pairTraceFolders(r.dirA, r.dirB);
  const header: Omit<SweepHeader, 'planned'> = {
    schema: SWEEP_SCHEMA,
    mode: 'traces',
    a: r.dirA,
    b: r.dirB,
    corpusSha256: sha256(JSON.stringify(pairs.map((p) => [p.id, p.wavA !== undefined]))),
    totalCases: pairs.length,
    shard: { index: r.shard.index, count: r.shard.count },
    unpaired,
  };
  const mine = shardCases(pairs, r.shard).map((p) => ({ ...p, key: p.id }));
  return runShard(header, mine, r, (todo, file) =>
    runTraceSweep(todo, {
      signal: r.signal,
      onCase: (c) => {
        file.append(c);
        r.onCase?.(c);
      },
    }),
  );
}
