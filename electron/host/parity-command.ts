import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParityCommand } from '../common/report/comparison-markdown.js';

/** This package's bin/parity.js: from dist/electron/host/ or, from source (tests), electron/host/. */
function ownLauncher(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../bin/parity.js', here) : new URL('../../../bin/parity.js', here));
}

const realpath = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/**
 * The `parity` a shell started in `PATH` would run, as a real path. A `node_modules/.bin` folder is
 * passed over: npm exec, npx and npm run put one first on PATH for the command they start only, so a
 * `parity` found there is not what the user's own shell finds afterwards.
 */
function parityOnPath(path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '' || dir.split(/[\\/]/).slice(-2).join('/') === 'node_modules/.bin') continue;
    const candidate = join(dir, 'parity');
    if (existsSync(candidate)) return realpath(candidate);
  }
  return undefined;
}

/**
 * How a report's Reproduce lines start a `parity` command, so that the line runs where the report was
 * made: the bare `parity` only when the `parity` on PATH is this very launcher (`npm install -g`);
 * otherwise `node <absolute path>/bin/parity.js`, which works from any folder (a checkout, a local
 * `npm install`, an `npx --package` run, an install whose bin folder is not on PATH). Inside a packaged
 * studio app (the launcher in an .asar archive, which plain node cannot read) no command of the app can
 * run it: the line names the installed `parity` and says that the app does not include it. The paths in
 * the lines are made absolute against `cwd`, the folder they were given from, so they run from any folder.
 */
export function parityCommand(launcher: string = ownLauncher(), path: string = process.env.PATH ?? '', cwd: string = process.cwd()): ParityCommand {
  if (launcher.split(/[\\/]/).some((part) => part.endsWith('.asar'))) {
    return { words: ['parity'], note: 'made in the packaged studio app, which does not include the parity command: install it (README, "Installing parity on a server") to run this', cwd };
  }
  const own = realpath(launcher) ?? launcher;
  return parityOnPath(path) === own ? { words: ['parity'], cwd } : { words: ['node', launcher], cwd };
}
