import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What the worker loads from dist/: the host, and the engine and common code under it. */
const WORKER_SOURCES = ['electron/host', 'electron/engine', 'electron/common'];

/**
 * The host starts its worker from dist/ (Node 20 cannot start a .ts worker). Rebuild when any source
 * the worker loads is newer than its output, so a test never runs yesterday's worker (or engine).
 * No parameters: it is passed to beforeAll as is, and Vitest reads a hook's first parameter as its fixtures.
 */
export function ensureBuilt(): void {
  ensureBuiltFrom(WORKER_SOURCES);
}

/** ensureBuilt for other source folders (e.g. the server and CLI that `parity serve` runs from dist/). */
export function ensureBuiltFrom(sources: readonly string[]): void {
  const stale = sources.some((dir) =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .some((f) => {
        const out = join('dist', dir, f.replace(/\.ts$/, '.js'));
        return !existsSync(out) || statSync(out).mtimeMs < statSync(join(dir, f)).mtimeMs;
      }),
  );
  if (!stale) return;
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  } catch {
    // tsc emits despite type errors in files being written by others; a missing worker fails the test.
  }
}
