import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gateCommand } from '../../../electron/common/report/comparison-markdown.js';
import { parityCommand } from '../../../electron/host/parity-command.js';

// Installs laid out as npm lays them out, in a temporary folder: a global prefix (bin/parity linking to
// lib/node_modules/<pkg>/bin/parity.js), a local install (node_modules/.bin/parity), an npx cache.
const root = mkdtempSync(join(tmpdir(), 'parity-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder with bin/parity.js under `dir`, and `links` (bin folders) each holding a `parity` link to it. */
function install(dir: string, ...links: string[]): string {
  const launcher = join(dir, 'bin', 'parity.js');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(launcher, '');
  for (const bin of links) {
    mkdirSync(bin, { recursive: true });
    symlinkSync(launcher, join(bin, 'parity'));
  }
  return launcher;
}

const globalPrefix = join(root, 'prefix');
const globalLauncher = install(join(globalPrefix, 'lib', 'node_modules', 'tts-parity-studio'), join(globalPrefix, 'bin'));
const project = join(root, 'project');
const localLauncher = install(join(project, 'node_modules', 'tts-parity-studio'), join(project, 'node_modules', '.bin'));
const npxCache = join(root, '.npm', '_npx', '1a2b');
const npxLauncher = install(join(npxCache, 'node_modules', 'tts-parity-studio'), join(npxCache, 'node_modules', '.bin'));
const PATH = ['/usr/local/bin', '/usr/bin'].join(delimiter);

describe('parityCommand: how report.md starts a parity command where it was made', () => {
  it('is the bare `parity` when the parity on PATH is this launcher (npm install -g)', () => {
    expect(parityCommand(globalLauncher, `${join(globalPrefix, 'bin')}${delimiter}${PATH}`, '/w')).toEqual({ words: ['parity'], cwd: '/w' });
  });

  it('is node and the absolute launcher when the install is not what PATH finds', () => {
    // A global install whose bin folder is not on PATH.
    expect(parityCommand(globalLauncher, PATH, '/w')).toEqual({ words: ['node', globalLauncher], cwd: '/w' });
    // A local `npm install ./tgz`: its node_modules/.bin is not on the user's PATH.
    expect(parityCommand(localLauncher, PATH, '/w')).toEqual({ words: ['node', localLauncher], cwd: '/w' });
    // `npx --package ./tgz parity …` puts the cache's node_modules/.bin first on PATH for that run only.
    expect(parityCommand(npxLauncher, `${join(npxCache, 'node_modules', '.bin')}${delimiter}${PATH}`, '/w')).toEqual({ words: ['node', npxLauncher], cwd: '/w' });
    // Another parity (another install) first on PATH: it is not the one that made the report.
    expect(parityCommand(localLauncher, `${join(globalPrefix, 'bin')}${delimiter}${PATH}`, '/w')).toEqual({ words: ['node', localLauncher], cwd: '/w' });
  });

  it('inside a packaged app (app.asar) names the installed parity and says the app does not include it', () => {
    const command = parityCommand('/opt/TTS Parity Studio/resources/app.asar/bin/parity.js', PATH);
    expect(command.words).toEqual(['parity']);
    expect(gateCommand('/data/exports/run-1', command)).toBe(
      '# made in the packaged studio app, which does not include the parity command: install it (README, "Installing parity on a server") to run this\nparity gate /data/exports/run-1',
    );
  });

  it("by default names this checkout's own bin/parity.js", () => {
    const { words } = parityCommand();
    expect(words).toEqual(['node', resolve('bin/parity.js')]);
    expect(existsSync(words[1])).toBe(true);
  });
});
