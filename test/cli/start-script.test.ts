import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'parity-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/** The pids of the direct children of `pid` (Linux /proc), e.g. the `parity serve` that start.js runs. */
async function childrenOf(pid: number): Promise<number[]> {
  const { readFileSync } = await import('node:fs');
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('scripts/start.js (browser mode, no Electron binary here)', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s sent to start.js alone stops it and its parity serve child', async (signal) => {
    // detached: its own process group, so only start.js gets the signal (not a terminal's whole group).
    const start = spawn(process.execPath, ['scripts/start.js', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => start.on('exit', (code, sig) => resolve({ code, signal: sig })));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL line within 20 s; output: ${out}`)), 20_000);
      start.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/http:\/\/127\.0\.0\.1:\d+\//.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const children = await childrenOf(start.pid!);
    expect(children).toHaveLength(1);
    process.kill(start.pid!, signal);
    const [startGone, childGone] = await Promise.all([gone(start.pid!, 5000), gone(children[0], 5000)]);
    if (!childGone) process.kill(children[0], 'SIGKILL');
    if (!startGone) process.kill(start.pid!, 'SIGKILL');
    expect({ startGone, childGone }).toEqual({ startGone: true, childGone: true });
    // start.js handled the signal and exited with its child's status (0 after a graceful stop, or
    // 128 + the signal's number), rather than dying of the signal's default action.
    const { code, signal: killedBy } = await exited;
    expect(killedBy).toBeNull();
    expect([0, 128 + constants.signals[signal]]).toContain(code);
  }, 30_000);
});
