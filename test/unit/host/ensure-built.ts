import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The host starts its worker from dist/ (Node 20 cannot start a .ts worker). Rebuild when any host
 * source is newer than its output, so a test never runs yesterday's worker.
 */
export function ensureBuilt(): void {
  const stale = readdirSync('electron/host', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .some((f) => {
      const out = join('dist/electron/host', f.replace(/\.ts$/, '.js'));
      return !existsSync(out) || statSync(out).mtimeMs < statSync(join('electron/host', f)).mtimeMs;
    });
  if (!stale) return;
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  } catch {
    // tsc emits despite type errors in files being written by others; a missing worker fails the test.
  }
}
