#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is installed, else browser mode (`parity serve`).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/**
 * The Electron binary's path, or undefined with the reason. Checked without `require('electron')`
 * first: that call tries to download the binary when it is missing, which cannot work offline.
 */
function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(require.resolve('electron/package.json'));
    const pathFile = join(pkgDir, 'path.txt');
    if (!existsSync(pathFile)) return { reason: 'the Electron binary is not installed (node_modules/electron has no path.txt)' };
    const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    if (!existsSync(binary)) return { reason: `the Electron binary is missing (${binary})` };
    return { binary };
  } catch (error) {
    return { reason: `electron cannot be loaded (${error.message.split('\n')[0]})` };
  }
}

/**
 * Runs the app as a child and lives exactly as long as it: a stop signal sent to this process alone
 * (not to the terminal's process group) is passed on, and the child is killed if it has not exited
 * 5 s later, so neither process is left behind. Exits with the child's status (128 + signal number
 * when a signal ended it).
 */
function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { stdio: 'inherit', cwd: root });
  child.on('error', (error) => {
    process.stderr.write(`npm start: cannot start ${command}: ${error.message}\n`);
    process.exit(3);
  });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 0)));
  let deadline;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      child.kill(sig);
      deadline ??= setTimeout(() => child.kill('SIGKILL'), 5000);
    });
  }
}

const { binary, reason } = electronBinary();
if (binary) {
  run(binary, [root, ...args]);
} else {
  process.stdout.write(`npm start: ${reason}; starting browser mode instead.\n`);
  run(process.execPath, [join(root, 'bin', 'parity.js'), 'serve', ...args]);
}
