import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Served {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `parity serve --port 0` as a user would and reads the URL it prints. */
export function startServe(extra: string[] = []): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parity-e2e-'));
  const child = spawn(process.execPath, ['bin/parity.js', 'serve', '--port', '0', '--data-dir', dataDir, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    // Generous for a loaded 2-core CI machine; a serve that never prints is stopped, not left running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`parity serve printed no URL in 60 s; stderr: ${err}`));
    }, 60_000);
    child.on('exit', (code) => reject(new Error(`parity serve exited with ${code}: ${err}`)));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        port: Number(m[2]),
        token: m[3],
        child,
        stop: () =>
          new Promise((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
