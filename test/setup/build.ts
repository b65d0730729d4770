import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Vitest globalSetup: the CLI tests spawn `node bin/parity.js`, which runs the built dist/, so build
 * once before the suite. Skipped when the run is filtered to files that include no CLI test, so that
 * `npx vitest run test/unit/x` stays fast. Type errors do not stop the build (tsc still emits; the
 * typecheck step reports them); a missing entry point afterwards does.
 */
export default async function setup(): Promise<void> {
  if (!runIncludesCliTests()) return;
  const started = Date.now();
  try {
    await promisify(execFile)('npx', ['tsc', '-p', 'tsconfig.build.json'], { maxBuffer: 16 << 20 });
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    process.stderr.write(`test/setup/build.ts: tsc reported errors (the build still emitted):\n${output}\n`);
  }
  if (!existsSync('dist/electron/cli/main.js')) throw new Error('test/setup/build.ts: build produced no dist/electron/cli/main.js');
  process.stderr.write(`test/setup/build.ts: built dist/ in ${Date.now() - started} ms\n`);
}

/** Vitest's positional arguments are file filters: a test file runs when its path contains one. */
function runIncludesCliTests(): boolean {
  const args = process.argv.slice(2);
  const takesValue = /^(-t|-c|-r|--testNamePattern|--config|--root|--dir|--project|--reporter|--pool|--maxWorkers|--testTimeout)$/;
  const commands = ['run', 'watch', 'related', 'bench'];
  const filters = args.filter((arg, i) => !arg.startsWith('-') && !commands.includes(arg) && !takesValue.test(args[i - 1] ?? ''));
  if (filters.length === 0) return true;
  const cliFiles = existsSync('test/cli') ? readdirSync('test/cli').map((f) => join('test/cli', f)) : [];
  return cliFiles.some((file) => filters.some((filter) => file.includes(filter.replace(/^\.\//, ''))));
}
