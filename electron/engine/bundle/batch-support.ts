import { join } from 'node:path';
import { BundleError } from '../../common/errors.js';
import type { ExecutionProfile } from '../../common/profile/types.js';
import type { BatchSection, BundleManifest, NetworkExport } from './manifest.js';

/** The export key's parts: `eager-fp32` → eager, fp32, dynamic batch; `graph-fp16@8` → graph, fp16, bucket 8. */
export function parseBatchKey(key: string): { preset: 'eager' | 'graph'; precision: 'fp32' | 'fp16'; bucket?: number } {
  const [head, bucket] = key.split('@');
  const [preset, precision] = head.split('-') as ['eager' | 'graph', 'fp32' | 'fp16'];
  return bucket === undefined ? { preset, precision } : { preset, precision, bucket: Number(bucket) };
}

/**
 * The rules across bundle.json `batch` fields: graphBuckets strictly ascending; every graph export's
 * bucket declared there and, per precision, one graph export for each bucket; the talker and the code
 * predictor batched the same ways (a batch runs both).
 */
export function checkBatchSection(b: BatchSection, fail: (msg: string) => never): void {
  const buckets = b.graphBuckets ?? [];
  buckets.forEach((n, i) => {
    if (i > 0 && n <= buckets[i - 1]) fail(`batch.graphBuckets must be strictly ascending: ${buckets.join(', ')}`);
  });
  const talkerKeys = Object.keys(b.talker).sort();
  const cpKeys = Object.keys(b.codePredictor).sort();
  if (talkerKeys.join() !== cpKeys.join()) {
    fail(`batch.talker and batch.codePredictor must have the same export keys (a batch runs both): talker has ${talkerKeys.join(', ') || 'none'}, codePredictor has ${cpKeys.join(', ') || 'none'}`);
  }
  if (talkerKeys.length === 0) fail('batch.talker has no export: declare "eager-<precision>" (dynamic batch) and/or "graph-<precision>@B" exports, or leave "batch" out');
  for (const precision of ['fp32', 'fp16']) {
    const graphs = talkerKeys.map(parseBatchKey).filter((k) => k.preset === 'graph' && k.precision === precision);
    if (graphs.length === 0) continue;
    if (buckets.length === 0) fail(`batch.graphBuckets is missing: batch.talker has graph exports (${talkerKeys.filter((k) => k.startsWith('graph')).join(', ')}) and the engine must know their batch sizes`);
    const have = graphs.map((k) => k.bucket as number);
    const undeclared = have.find((n) => !buckets.includes(n));
    if (undeclared !== undefined) fail(`batch.talker["graph-${precision}@${undeclared}"]: batch ${undeclared} is not in batch.graphBuckets (${buckets.join(', ')})`);
    const missing = buckets.find((n) => !have.includes(n));
    if (missing !== undefined) fail(`batch.talker has no "graph-${precision}@${missing}": batch.graphBuckets declares ${buckets.join(', ')}, and each needs its graph export`);
  }
}

/** The batched exports and the batch size a batch=N profile runs at (the graph preset: its bucket). */
export interface BatchExports {
  talker: NetworkExport;
  codePredictor: NetworkExport;
  key: string;
  /** Rows each run feeds: N for eager (dynamic batch), the smallest graph bucket ≥ N for graph. */
  rows: number;
}

/**
 * The exports a `batch=N` profile (N ≥ 2) runs, or a BundleError in one line naming the bundle.json
 * and what is missing: the `batch` field itself (an older bundle), the export for the preset and
 * precision, or a graph bucket large enough.
 */
export function pickBatchExports(dir: string, m: BundleManifest, profile: ExecutionProfile, batch: number): BatchExports {
  const where = join(dir, 'bundle.json');
  const refuse = (why: string, field: string): never => {
    throw new BundleError(`${where}: profile "${profile.text}" runs a batch of ${batch}, but ${why}`, `${where}:${field}`);
  };
  const b = m.batch;
  if (!b) return refuse('this bundle declares no batch support (bundle.json has no "batch" field; it runs batch 1 only; docs/bundle-format.md "Batch support")', 'batch');
  const precision = profile.precision;
  if (profile.preset === 'eager') {
    const key = `eager-${precision}`;
    if (!b.talker[key] || !b.codePredictor[key]) refuse(`its bundle.json "batch" has no "${key}" export (it has: ${Object.keys(b.talker).join(', ')})`, `batch.talker.${key}`);
    return { talker: b.talker[key], codePredictor: b.codePredictor[key], key, rows: batch };
  }
  const buckets = (b.graphBuckets ?? []).filter((n) => b.talker[`graph-${precision}@${n}`]);
  if (buckets.length === 0) refuse(`its bundle.json "batch" has no "graph-${precision}@B" export (it has: ${Object.keys(b.talker).join(', ')})`, 'batch.talker');
  const bucket = buckets.find((n) => n >= batch);
  if (bucket === undefined) {
    return refuse(`its graph-${precision} batch buckets are ${buckets.join(', ')} (bundle.json batch.graphBuckets); a graph run needs a bucket of at least ${batch} rows`, 'batch.graphBuckets');
  }
  const key = `graph-${precision}@${bucket}`;
  return { talker: b.talker[key], codePredictor: b.codePredictor[key], key, rows: bucket };
}
