import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';
import { missingSlurmPrograms, startSlurmCluster, type SlurmCluster } from './sweep-slurm-cluster.js';

// A real scheduler: a one-node Slurm cluster on this machine runs docs/examples/sweep.sbatch as written,
// as a 3-task array. Slurm is installed by .ci/run; where it is missing this test fails and says so.
const missing = missingSlurmPrograms();
const repo = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-slurm-'));
const corpus = join(dir, 'corpus.txt');
const PAIR = ['--a', 'graph', '--b', 'graph,fault=stale-feedback@2'];
let cluster: SlurmCluster | undefined;

beforeAll(() => {
  writeFileSync(corpus, ['Hello there.', 'The cat sat.', 'A short one.', 'Good morning.', 'See you soon.', 'Yes.'].join('\n') + '\n');
  if (missing.length === 0) cluster = startSlurmCluster();
}, 60_000);
afterAll(() => {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('parity sweep on a Slurm array', () => {
  it('runs docs/examples/sweep.sbatch with --array=0-2; the merged shards equal the unsharded run byte for byte', async () => {
    expect(missing, `Slurm is not installed here (${missing.join(', ')} not found); .ci/run installs it: apt-get install slurm-wlm munge`).toEqual([]);
    const out = join(dir, 'shards');
    const sbatch = spawnSync(
      'sbatch',
      ['--array=0-2', '--wait', `--chdir=${repo}`, `--output=${join(dir, 'task-%a.log')}`, 'docs/examples/sweep.sbatch', '--corpus', corpus, ...PAIR, '--out', out],
      { env: { ...cluster!.env, PARITY: `${process.execPath} ${join(repo, 'bin', 'parity.js')}` }, encoding: 'utf8', timeout: 60_000 },
    );
    const logs = readdirSync(dir).filter((f) => f.startsWith('task-')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(sbatch.status, `sbatch: ${sbatch.stderr}\n${logs.join('\n')}`).toBe(0);
    expect(logs).toHaveLength(3);
    for (const [i, log] of logs.entries()) expect(log).toContain(`sweep: shard ${i + 1}/3 (SLURM_ARRAY_TASK_ID=${i}): 2 cases`);
    for (const i of [1, 2, 3]) expect(existsSync(join(out, `shard-00${i}-of-3.jsonl`))).toBe(true);

    const whole = join(dir, 'whole');
    expect((await runParity(['sweep', '--corpus', corpus, ...PAIR, '--out', whole], { timeoutMs: 30_000 })).status).toBe(0);
    const merge = async (from: string, to: string) => expect((await runParity(['sweep', 'merge', from, '--out', to, '--worst', '0'])).status).toBe(0);
    await merge(out, join(dir, 'merged-slurm'));
    await merge(whole, join(dir, 'merged-whole'));
    expect(readFileSync(join(dir, 'merged-slurm', 'sweep.json'), 'utf8')).toBe(readFileSync(join(dir, 'merged-whole', 'sweep.json'), 'utf8'));
  }, 90_000);
});
