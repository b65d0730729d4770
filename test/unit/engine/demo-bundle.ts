import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle, type LoadedBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { writeDemoBundle } from '../../../../electron/engine/demo/build-demo-bundle.js';

/** A fresh demo bundle in a temp folder, loaded; `dispose` removes it. */
export async function demoBundle(): Promise<{ dir: string; bundle: LoadedBundle; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'native-test-'));
  await writeDemoBundle(dir);
  return { dir, bundle: await loadBundle(dir), dispose: () => rm(dir, { recursive: true, force: true }) };
}
