import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Vitest globalSetup: the CLI tests spawn `node bin/parity.js`, which runs the built dist/, so build
 * once before the suite. Skipped when the run is filtered to files that include no CLI test, so that
 * `npx vitest run test/unit/x` stays fast. Type errors do not stop the build (tsc still emits; the
 * typecheck step reports them); a missing entry point afterwards does.
 */
export default async function setup(): Promise<void> {
  await buildReportPageIfStale();
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

/** The sources of the report page (vite --mode report) that every fixture writer inlines into report.html. */
const REPORT_PAGE_SOURCES = ['renderer/report', 'renderer/src/lib', 'electron/common/draw', 'electron/common/report/html'];
const REPORT_PAGE = 'dist/report-page/report-page.js';

/**
 * Every fixture writer (CLI and studio export, so unit tests too) inlines dist/report-page into report.html:
 * build it (about a second) when it is missing or older than its sources.
 */
export async function buildReportPageIfStale(): Promise<void> {
  const built = existsSync(REPORT_PAGE) ? statSync(REPORT_PAGE).mtimeMs : 0;
  const newest = Math.max(...REPORT_PAGE_SOURCES.flatMap((dir) => readdirSync(dir, { recursive: true }).map((f) => statSync(join(dir, String(f))).mtimeMs)));
  if (built >= newest) return;
  // vitest sets NODE_ENV=test; the page ships React's production build, as npm run build makes it.
  await promisify(execFile)('npx', ['vite', 'build', '--mode', 'report', '--logLevel', 'error'], { env: { ...process.env, NODE_ENV: 'production' } });
}
