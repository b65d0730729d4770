#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is installed, else browser mode (`parity serve`).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { stdio: 'inherit', cwd: root });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

const { binary, reason } = electronBinary();
if (binary) {
  run(binary, [root, ...args]);
} else {
  process.stdout.write(`npm start: ${reason}; starting browser mode instead.\n`);
  run(process.execPath, [join(root, 'bin', 'parity.js'), 'serve', ...args]);
}
