import { InputError } from '../errors.js';

/** Shard i of n, 1-based: the i-th of n disjoint shares of a sweep's cases. */
export interface Shard {
  index: number;
  count: number;
}

/** Where the shard came from, for the progress line (e.g. `SLURM_ARRAY_TASK_ID=2`). */
export interface ResolvedShard extends Shard {
  from: string;
}

/** `i/n` with 1 <= i <= n. */
export function parseShardText(text: string, where = '--shard'): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new InputError(`${where} ${text}: expected i/n with 1 <= i <= n, e.g. 2/4`);
  return { index, count };
}

function envInteger(env: Record<string, string | undefined>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  if (!/^\d+$/.test(text.trim())) throw new InputError(`${name}=${text}: expected an integer >= 0`);
  return Number(text);
}

/**
 * The shard this process runs, first found of: `--shard i/n`; a Slurm array task
 * (`SLURM_ARRAY_TASK_ID` within `SLURM_ARRAY_TASK_MIN`..`MAX` by `STEP`, or with
 * `SLURM_ARRAY_TASK_COUNT` when MIN/MAX are absent); a Kubernetes Indexed Job's 0-based
 * `JOB_COMPLETION_INDEX` with `--shard-count n`; else 1/1 (the whole sweep).
 */
export function resolveShard(flag: string | undefined, shardCount: number | undefined, env: Record<string, string | undefined>): ResolvedShard {
  if (flag !== undefined) {
    if (shardCount !== undefined) throw new InputError('give --shard i/n or --shard-count n, not both');
    return { ...parseShardText(flag), from: '--shard' };
  }
  const slurmId = envInteger(env, 'SLURM_ARRAY_TASK_ID');
  if (slurmId !== undefined) {
    const shard = slurmShard(slurmId, env);
    if (shardCount !== undefined && shardCount !== shard.count) throw new InputError(`--shard-count ${shardCount} disagrees with the Slurm array's ${shard.count} tasks; leave --shard-count out under Slurm`);
    return { ...shard, from: `SLURM_ARRAY_TASK_ID=${slurmId}` };
  }
  const k8sIndex = envInteger(env, 'JOB_COMPLETION_INDEX');
  if (k8sIndex !== undefined) {
    if (shardCount === undefined) throw new InputError(`JOB_COMPLETION_INDEX=${k8sIndex} is set but no --shard-count n says how many shards there are (the Job's completions)`);
    if (k8sIndex >= shardCount) throw new InputError(`JOB_COMPLETION_INDEX=${k8sIndex} is outside 0..${shardCount - 1} (--shard-count ${shardCount})`);
    return { index: k8sIndex + 1, count: shardCount, from: `JOB_COMPLETION_INDEX=${k8sIndex}` };
  }
  if (shardCount !== undefined && shardCount !== 1) throw new InputError(`--shard-count ${shardCount} needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID; give --shard i/n otherwise`);
  return { index: 1, count: 1, from: 'no shard given: the whole sweep' };
}

function slurmShard(id: number, env: Record<string, string | undefined>): Shard {
  const min = envInteger(env, 'SLURM_ARRAY_TASK_MIN');
  const max = envInteger(env, 'SLURM_ARRAY_TASK_MAX');
  const step = envInteger(env, 'SLURM_ARRAY_TASK_STEP') ?? 1;
  const count = envInteger(env, 'SLURM_ARRAY_TASK_COUNT');
  if (step < 1) throw new InputError(`SLURM_ARRAY_TASK_STEP=${step}: expected an integer >= 1`);
  if (min !== undefined && max !== undefined) {
    if (id < min || id > max || (id - min) % step !== 0) throw new InputError(`SLURM_ARRAY_TASK_ID=${id} is not in the array ${min}-${max}:${step}`);
    const n = Math.floor((max - min) / step) + 1;
    // A list array (--array=1,4,9) also has MIN/MAX; only COUNT then tells the shards apart from the gaps.
    if (count !== undefined && count !== n) throw new InputError(`SLURM_ARRAY_TASK_COUNT=${count} does not match the range ${min}-${max}:${step} (${n} tasks); a list array (e.g. --array=1,4,9) cannot be sharded: use --array=0-${count - 1}`);
    return { index: (id - min) / step + 1, count: n };
  }
  if (count === undefined) throw new InputError(`SLURM_ARRAY_TASK_ID=${id} is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX, so the number of shards is unknown`);
  if (id >= count) throw new InputError(`SLURM_ARRAY_TASK_ID=${id} is outside 0..${count - 1} (SLURM_ARRAY_TASK_COUNT=${count}); without MIN/MAX the array must start at 0`);
  return { index: id + 1, count };
}
