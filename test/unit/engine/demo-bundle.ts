import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle, type LoadedBundle } from '../../../electron/engine/bundle/load-bundle.js';
import { writeDemoBundle } from '../../../electron/engine/demo/build-demo-bundle.js';
import { Engine } from '../../../electron/engine/engine.js';

async function demoBundleDir(prefix: string): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeDemoBundle(dir);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh demo bundle in a temp folder, loaded; `dispose` removes it. */
export async function demoBundle(prefix = 'native-test-'): Promise<{ dir: string; bundle: LoadedBundle; dispose: () => Promise<void> }> {
  const { dir, dispose } = await demoBundleDir(prefix);
  return { dir, bundle: await loadBundle(dir), dispose };
}

/** A fresh demo bundle in a temp folder, opened by an Engine; `dispose` closes the engine and removes the folder. */
export async function demoEngine(prefix: string): Promise<{ dir: string; engine: Engine; dispose: () => Promise<void> }> {
  const { dir, dispose } = await demoBundleDir(prefix);
  const engine = await Engine.open(dir);
  return {
    dir,
    engine,
    dispose: async () => {
      await engine.close();
      await dispose();
    },
  };
}
