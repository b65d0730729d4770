import { join } from 'node:path';
import { loadBundle } from '../bundle/load-bundle.js';
import { SessionPool } from '../run/session-pool.js';
import type { SynthesisRequest, SynthesisResult } from '../types.js';
import { agreementPrecisions, checkEagerGraphAgreement } from './eager-graph-agreement.js';
import { smokeError, smokeExport } from './smoke-export.js';
import { splitLabel } from './smoke-sizes.js';
import { checkTableFinite } from './table-finite.js';

/**
 * `parity bundle check DIR --smoke`: every export run at two sizes of each symbolic dimension on
 * seeded random inputs (docs/bundle-format.md, "Smoke check"), its declared inputs read and its graph
 * outputs fixed, then eager against graph on a short greedy run through the engine. The first failure
 * throws (exit 2, one line naming the export, file, sizes and what to fix); otherwise one line per check.
 * `synthesize` is an open Engine's; `progress` hears each check as it starts.
 */
export async function runSmoke(dir: string, synthesize: (req: SynthesisRequest) => Promise<SynthesisResult>, progress?: (what: string) => void): Promise<string[]> {
  const bundle = await loadBundle(dir);
  const pool = new SessionPool(bundle);
  const lines: string[] = [];
  try {
    for (const { label, exp } of bundle.exports) {
      progress?.(label);
      const model = bundle.files.get(exp.file);
      if (!model) throw smokeError(`${label}: ${exp.file} was not loaded with the bundle`, exp.file);
      // Opened as the engine opens it: graph exports with full optimisation, the rest without.
      const { session } = await pool.get(label, exp, splitLabel(label).graph, 'cpu');
      lines.push(await smokeExport(bundle.manifest, bundle.dir, { label, exp, model, session }));
    }
    if (bundle.tableFile) {
      progress?.('embed.table');
      lines.push(checkTableFinite(bundle.tableFile, bundle.manifest, join(bundle.dir, bundle.manifest.embed.table!.file)));
    }
    const precisions = agreementPrecisions(bundle.manifest);
    for (const precision of precisions) {
      progress?.(`eager vs graph (${precision})`);
      lines.push(await checkEagerGraphAgreement(bundle.manifest, synthesize, precision));
    }
    if (precisions.length === 0) lines.push('eager vs graph: not compared (no precision has both eager and graph exports)');
  } finally {
    await pool.close();
  }
  return lines;
}
