import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ParityRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the child in MiB (process.resourceUsage().maxRSS at exit). */
  maxRssMiB: number;
}

// Records the child's peak RSS at exit, however it exits (process.exit included).
const RSS_HOOK =
  'data:text/javascript,import fs from "node:fs";process.on("exit",()=>fs.writeFileSync(process.env.PARITY_TEST_RSS_FILE,String(process.resourceUsage().maxRSS)))';

export interface RunParityOptions {
  timeoutMs?: number;
  env?: Record<string, string>;
  /** More `--import` hooks for the child (data: URLs), after the RSS hook. */
  imports?: string[];
  /** Run the child as this user and group (a root test runner checking what an unprivileged user sees). */
  uid?: number;
  gid?: number;
  /** Called once the child is spawned; the returned function runs when it has closed. */
  whileRunning?: (child: ChildProcess) => () => void;
}

/** Runs `node bin/parity.js ...args` (the built dist/) with a time limit; never throws on failure. */
export function runParity(args: string[], options: RunParityOptions = {}): Promise<ParityRun> {
  const dir = mkdtempSync(join(tmpdir(), 'parity-run-'));
  const rssFile = join(dir, 'rss');
  // Another user writes its record here.
  if (options.uid !== undefined) chmodSync(dir, 0o777);
  return new Promise((resolve, reject) => {
    const hooks = [RSS_HOOK, ...(options.imports ?? [])].flatMap((hook) => ['--import', hook]);
    const child = spawn(process.execPath, [...hooks, 'bin/parity.js', ...args], {
      env: { ...process.env, ...options.env, PARITY_TEST_RSS_FILE: rssFile },
      timeout: options.timeoutMs ?? 20_000,
      killSignal: 'SIGKILL',
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    const stopWatching = options.whileRunning?.(child);
    child.on('close', (status, signal) => {
      stopWatching?.();
      let maxRssMiB = Number.NaN;
      try {
        maxRssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
      } catch {
        // killed before exit: no record, the caller sees the signal
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ status, signal, stdout, stderr, maxRssMiB });
    });
  });
}

/** Runs tasks with at most `limit` at a time (the machine has 2 cores). */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
