import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { writeDemoBundle, type DemoBuildOptions } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { QWEN3_SHAPED } from '../../../../electron/engine/demo/qwen3-shaped-config.js';
import { makePlan } from '../../../../electron/engine/plan.js';
import type { NetworkExport } from '../../../../electron/engine/bundle/manifest.js';
import { EmbeddingTable } from '../../../../electron/engine/run/embedding-table.js';
import { RunClock } from '../../../../electron/engine/run/run-clock.js';
import { SessionPool } from '../../../../electron/engine/run/session-pool.js';
import type { SynthesisPlan } from '../../../../electron/engine/synthesize.js';

export const QWEN_SEED = 7;

/** A temp root for Qwen3-shaped bundles (eager and graph fp32, no fault variants: the few-second build). */
export async function qwenRoot(prefix: string) {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return {
    root,
    async bundle(name: string, opts: DemoBuildOptions = {}): Promise<string> {
      const dir = join(root, name);
      await writeDemoBundle(dir, QWEN_SEED, { config: QWEN3_SHAPED, precisions: ['fp32'], faultVariants: false, ...opts });
      return dir;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A plan for `profile` over the bundle in `dir` (sessions of a fresh pool, the table the bundle
 * names), so a test can wrap a network of it; `close` releases the pool and the table.
 */
export async function planFor(dir: string, profile = 'eager'): Promise<{ plan: SynthesisPlan; close: () => Promise<void> }> {
  const bundle = await loadBundle(dir);
  const pool = new SessionPool(bundle);
  let table: EmbeddingTable;
  if (bundle.tableFile) table = EmbeddingTable.fromFile(bundle.tableFile, bundle.manifest);
  else {
    const embed = await pool.get('embed', bundle.manifest.embed.export as NetworkExport, false, 'cpu');
    table = await EmbeddingTable.read(embed.session, bundle.manifest, new RunClock());
  }
  const plan = await makePlan(bundle, pool, table, parseProfile(profile));
  return {
    plan,
    close: async () => {
      table.close();
      await pool.close();
    },
  };
}
