import { Engine, resolveDemoBundle } from '../engine.js';

/** Opens the bundle at `dir`, or the demo bundle (built on first use) when `dir` is absent or "demo". */
export async function openEngine(dir?: string): Promise<{ engine: Engine; bundle: string }> {
  if (dir === undefined || dir === 'demo') return { engine: await Engine.open(await resolveDemoBundle()), bundle: 'demo' };
  return { engine: await Engine.open(dir), bundle: dir };
}
