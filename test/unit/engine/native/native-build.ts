import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../../electron/engine/native/native-addon.js';

export interface NativeBuild {
  /** nvcc is not installed here: the addon is not built and the tests assert the "not built" errors. */
  nvccMissing: boolean;
  /** Exit status and output of `build-native.js --require`. */
  status: number | null;
  log: string;
  /** The nvcc the build used (its first line names it), for `make -C native/test` to use the same one. */
  nvcc: string | undefined;
}

/**
 * Builds the addon (make caches the objects, so an up-to-date build costs well under a second). Test
 * files run in two forks: the build holds a lock file, so two files never run make on one folder at once.
 */
export function buildNativeAddon(): NativeBuild {
  const script = join(projectRoot(), 'scripts', 'build-native.js');
  const lock = join(tmpdir(), 'parity-native-build.lock');
  const withLock = spawnSync('flock', ['--version'], { encoding: 'utf8' }).status === 0;
  const [cmd, args] = withLock ? ['flock', [lock, process.execPath, script, '--require']] : [process.execPath, [script, '--require']];
  const build = spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000 });
  const log = `${build.stdout}${build.stderr}`;
  const nvcc = /^build:native: nvcc (\S+),/m.exec(log)?.[1];
  return { nvccMissing: /nvcc not found/.test(log), status: build.status, log, nvcc };
}
