import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Debian packages' daemons and clients a one-node cluster needs (`.ci/run` installs them). */
export const SLURM_PROGRAMS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'sinfo'] as const;

/** Programs of SLURM_PROGRAMS that are not on the PATH (or in /usr/sbin, where Debian puts daemons). */
export function missingSlurmPrograms(): string[] {
  const path = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`;
  return SLURM_PROGRAMS.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`], { env: { ...process.env, PATH: path } }).status !== 0);
}

export interface SlurmCluster {
  dir: string;
  /** Environment for the clients (sbatch, sinfo): SLURM_CONF pointing at this cluster, PATH with /usr/sbin. */
  env: NodeJS.ProcessEnv;
  stop(): void;
}

const PID_FILES = ['slurmd.pid', 'slurmctld.pid', 'munged.pid'];

function waitFor(what: string, ok: () => boolean, timeoutMs: number, log: () => string): void {
  const until = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`one-node Slurm cluster: ${what} did not happen within ${timeoutMs} ms; ${log()}`);
    execFileSync('sleep', ['0.2']);
  }
}

/**
 * Starts munged, slurmctld and slurmd for this machine alone, as root, everything (key, socket, state,
 * spool, pid and log files) in a private temporary folder and on ports off Slurm's defaults
 * (the recipe of ../shared/LIBRARIES.md). `stop()` ends the three daemons by their pid files.
 */
export function startSlurmCluster(): SlurmCluster {
  const dir = mkdtempSync(join(tmpdir(), 'parity-slurm-'));
  // munged wants every folder on the socket's path searchable by all.
  chmodSync(dir, 0o755);
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin`, SLURM_CONF: join(dir, 'slurm.conf') };
  const host = hostname().split('.')[0];
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  mkdirSync(join(dir, 'state'));
  mkdirSync(join(dir, 'spool'));
  writeFileSync(join(dir, 'munge.key'), randomBytes(1024), { mode: 0o400 });
  const conf = [
    'ClusterName=paritytest',
    `SlurmctldHost=${host}`,
    `SlurmctldPort=${port}`,
    `SlurmdPort=${port + 1}`,
    'AuthType=auth/munge',
    `AuthInfo=socket=${join(dir, 'munge.socket')}`,
    'CredType=cred/munge',
    'SlurmUser=root',
    'SlurmdUser=root',
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'MpiDefault=none',
    'ReturnToService=2',
    'JobCompType=jobcomp/none',
    'AccountingStorageType=accounting_storage/none',
    // Schedule a freed CPU at once rather than at the default 2 s minimum interval.
    'SchedulerParameters=sched_min_interval=0',
    `NodeName=${host} CPUs=${cpus().length} State=UNKNOWN`,
    `PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
  ];
  writeFileSync(env.SLURM_CONF, conf.join('\n') + '\n');
  const cluster: SlurmCluster = {
    dir,
    env,
    stop() {
      for (const file of PID_FILES) {
        const path = join(dir, file);
        if (!existsSync(path)) continue;
        const pid = Number(readFileSync(path, 'utf8').trim());
        if (!Number.isInteger(pid) || pid <= 1) continue;
        try {
          process.kill(pid, 'SIGTERM');
          waitFor(`${file.replace('.pid', '')} (pid ${pid}) to stop`, () => !alive(pid), 10_000, () => '');
        } catch {
          // already gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const logs = () => ['munged.log', 'slurmctld.log', 'slurmd.log'].filter((f) => existsSync(join(dir, f))).map((f) => `${f}: ${readFileSync(join(dir, f), 'utf8').split('\n').slice(-5).join(' | ')}`).join('; ');
  try {
    const run = (program: string, args: string[]) => execFileSync(program, args, { env, stdio: 'pipe' });
    run('munged', ['--socket', join(dir, 'munge.socket'), '--key-file', join(dir, 'munge.key'), '--pid-file', join(dir, 'munged.pid'), '--log-file', join(dir, 'munged.log'), '--seed-file', join(dir, 'munge.seed'), '--force']);
    run('slurmctld', ['-i']);
    run('slurmd', []);
    waitFor('the node to come up idle', () => spawnSync('sinfo', ['-h', '-o', '%T'], { env, encoding: 'utf8' }).stdout.trim() === 'idle', 20_000, logs);
  } catch (error) {
    cluster.stop();
    throw error;
  }
  return cluster;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}
