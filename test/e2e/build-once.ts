import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuiltFrom } from '../unit/host/ensure-built.js';

function newestMtime(dir: string): number {
  return Math.max(0, ...readdirSync(dir, { recursive: true }).map((f) => statSync(join(dir, String(f))).mtimeMs));
}

/** dist/ (tsc) and dist/renderer (Vite) must reflect the sources before `parity serve` runs. */
export function buildOnce(): void {
  // `parity serve` also runs the CLI and the server from dist/.
  ensureBuiltFrom(['electron/host', 'electron/engine', 'electron/common', 'electron/server', 'electron/cli']);
  if (!existsSync('dist/electron/cli/main.js')) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  const index = 'dist/renderer/index.html';
  const stale = !existsSync(index) || statSync(index).mtimeMs < Math.max(newestMtime('renderer'), newestMtime('electron/common/api'));
  // vitest sets NODE_ENV=test, which Vite would carry into the bundle (React's development build, with
  // its StrictMode double effects); test what `npm run build` ships.
  if (stale) execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
}
