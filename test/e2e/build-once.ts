import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuiltFrom } from '../unit/host/ensure-built.js';

function newestMtime(dir: string): number {
  return Math.max(0, ...readdirSync(dir, { recursive: true }).map((f) => statSync(join(dir, String(f))).mtimeMs));
}

const LOCK = 'dist/.build-once.lock';
// Longer than a tsc + Vite build on two busy cores: a lock this old was left by a killed run.
const STALE_LOCK_MS = 5 * 60_000;

/**
 * Runs `build` while holding a lock folder, so e2e files starting in parallel forks share one build of
 * the tree: the others wait, then find it fresh (a second Vite build would empty dist/renderer under a
 * page being served).
 */
function withBuildLock(build: () => void): void {
  mkdirSync('dist', { recursive: true });
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      Atomics.wait(sleeper, 0, 0, 200);
    }
  }
  try {
    build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** dist/ (tsc) and dist/renderer (Vite) must reflect the sources before `parity serve` runs. */
export function buildOnce(): void {
  withBuildLock(buildIfStale);
}

function buildIfStale(): void {
  // `parity serve` also runs the CLI and the server from dist/.
  ensureBuiltFrom(['electron/host', 'electron/engine', 'electron/common', 'electron/server', 'electron/cli']);
  if (!existsSync('dist/electron/cli/main.js')) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  const index = 'dist/renderer/index.html';
  const stale = !existsSync(index) || statSync(index).mtimeMs < Math.max(newestMtime('renderer'), newestMtime('electron/common/api'), newestMtime('electron/common/draw'));
  // vitest sets NODE_ENV=test, which Vite would carry into the bundle (React's development build, with
  // its StrictMode double effects); test what `npm run build` ships.
  if (stale) execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
}
