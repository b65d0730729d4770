import { spawn } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from 'commander';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { parentProblem, statOrUndefined } from '../../host/fs/writable-target.js';
import { StudioHost } from '../../host/studio-host.js';
import { isLoopbackHost } from '../../server/request-guard.js';
import { startStudioServer } from '../../server/studio-server.js';
import { action } from '../fail.js';
import { printOut, printErr } from '../print.js';
import { kindOf } from '../../engine/fs/read-checked.js';

/** The built renderer: dist/renderer beside dist/electron (from source: the repo's dist/renderer). */
function rendererDir(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../../dist/renderer/', here) : new URL('../../../renderer/', here));
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`expected a port 0..65535, found "${value}"`);
  return port;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('browser mode: serve the studio on http://127.0.0.1 with a one-time token in the URL')
    .option('--port <n>', 'port to listen on (0 = any free port)', parsePort, 0)
    .option('--host <address>', 'address to bind; anything but loopback needs --allow-remote', '127.0.0.1')
    .option('--allow-remote', 'allow binding a non-loopback address (anyone who gets the URL can use the studio)')
    .option('--open', 'open the URL in the default browser')
    .option('--bundle <dir>', 'model bundle folder (default: the embedded demo bundle)')
    .option('--data-dir <dir>', 'where history is kept (default: the per-user data folder)')
    .option('--allow-host <host>', 'endpoint sides (docs/deployments.md) may also call this host besides loopback; repeat for more', (h: string, all: string[]) => [...all, h], [] as string[])
    .action(
      action('serve', async (options) => {
        const staticDir = rendererDir();
        if (!existsSync(`${staticDir}/index.html`)) printErr(`parity serve: warning: the renderer is not built (${staticDir}); run \`npm run build\`\n`);
        if (options.dataDir !== undefined) await checkDataDir(options.dataDir);
        const host = new StudioHost({ dataDir: options.dataDir, bundleDir: options.bundle, allowHosts: options.allowHost });
        // Open the bundle in the engine worker before listening: a bad bundle is the same one-line
        // error and exit 2 that `parity synth` gives, not a page that can only show it.
        try {
          await host.bundleInfo();
        } catch (error) {
          // Not awaited: the error exit below ends the worker with this process.
          void host.dispose();
          throw error;
        }
        const server = await startStudioServer({ studio: host, staticDir, host: options.host, port: options.port, allowRemote: options.allowRemote });
        if (!isLoopbackHost(server.host)) {
          printErr(`parity serve: WARNING: listening on ${server.host}, reachable from other machines; anyone with the URL (token included) can use the studio\n`);
        }
        printOut(`TTS Parity Studio (browser mode): ${server.url}\n`);
        printOut(`history: ${host.dataDir}; press Ctrl+C to stop\n`);
        if (options.open) openBrowser(server.url);
        const stop = () => {
          void server.close().then(() => host.dispose()).finally(() => process.exit(0));
        };
        for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
      }),
    );
}

function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => printErr(`parity serve: could not open a browser (${cmd}); open the URL above yourself\n`));
  child.unref();
}

/**
 * --data-dir must be a folder this process can write in, or a path where one can be created: a file
 * there started a server whose every save failed.
 */
async function checkDataDir(dir: string): Promise<void> {
  const target = resolve(dir);
  const found = await statOrUndefined(target).catch((error: unknown) => {
    throw new InputError(`--data-dir ${dir}: cannot read (${fsReason(error)})`, dir);
  });
  if (found && !found.isDirectory()) throw new InputError(`--data-dir ${dir}: is ${kindOf(found)}, not a folder; give a folder for the history (created if missing)`, dir);
  const problem = found ? await access(target, constants.W_OK).then(() => undefined, (error: unknown) => `cannot write in it (${fsReason(error)})`) : await parentProblem(target);
  if (problem) throw new InputError(`--data-dir ${dir}: ${problem}`, dir);
}
