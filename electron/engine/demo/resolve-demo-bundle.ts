import { randomBytes } from 'node:crypto';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeDemoBundle } from './build-demo-bundle.js';
import { DEMO_SEED } from './demo-config.js';

/** Bump when the demo builder's output changes, so an old cached bundle is not reused. */
export const DEMO_BUNDLE_VERSION = 5;

function demoCacheRoot(): string {
  if (process.env.PARITY_CACHE_DIR) return process.env.PARITY_CACHE_DIR;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tts-parity-studio');
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/**
 * The demo bundle's folder, built on first use into the cache (PARITY_CACHE_DIR, else
 * $XDG_CACHE_HOME/tts-parity-studio, else ~/.cache/tts-parity-studio). The bundle is written into a
 * private temp folder and renamed into place, so a reader never sees half a bundle; when two processes
 * race, one rename wins and the other discards its copy (the bytes are identical anyway).
 */
export async function resolveDemoBundle(): Promise<string> {
  const root = demoCacheRoot();
  const target = join(root, `demo-bundle-v${DEMO_BUNDLE_VERSION}-${DEMO_SEED}`);
  if (await exists(join(target, 'bundle.json'))) return target;
  await mkdir(root, { recursive: true });
  const temp = join(root, `.tmp-demo-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await writeDemoBundle(temp);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (!(await exists(join(target, 'bundle.json')))) throw error;
  }
  return target;
}
