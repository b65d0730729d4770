import { execFile } from 'node:child_process';
import { cp, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BundleManifest } from '../../engine/bundle/manifest.js';
import { writeDemoBundle } from '../../engine/demo/build-demo-bundle.js';
import type { DemoConfig } from '../../engine/demo/demo-config.js';
import { QWEN3_SHAPED } from '../../engine/demo/qwen3-shaped-config.js';
import { uniformWeights } from '../../engine/demo/weight-rng.js';
import { toHalfArray } from '../../engine/numeric/float16.js';
import type { LazyTableBench } from './bench-results.js';

/** Qwen3-TTS's text vocabulary (151 936 rows) at hidden 1024, float16: the table the issue names. */
const TEXT_ROWS = 151_936;
const HIDDEN = 1024;

/** The Qwen3-shaped demo with a 1024-wide talker (tiny otherwise) and its table as a raw float16 file. */
const CONFIG: DemoConfig = {
  ...QWEN3_SHAPED,
  talker: { ...QWEN3_SHAPED.talker, hidden: HIDDEN, heads: 2, kvHeads: 1, headDim: 16, ffn: 64 },
  codePredictor: { ...QWEN3_SHAPED.codePredictor, hidden: 64, ffn: 64 },
  embedTable: { format: 'raw', dtype: 'float16' },
};

interface ChildReading {
  before: number;
  opened: number;
  synthesized: number;
  openMs: number;
}

async function measure(dir: string): Promise<ChildReading> {
  const child = fileURLToPath(new URL('./lazy-table-open.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', child, dir], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ChildReading;
}

/**
 * Rewrites the bundle in `dir` to hold TEXT_ROWS text rows: its own text rows first (bytes and the
 * template's special ids keep their values), then fixed-seed filler rows, then its codec rows, written
 * in 1024-row pieces so the builder never holds the table.
 */
async function growTextRows(dir: string): Promise<number> {
  const path = join(dir, 'bundle.json');
  const m = JSON.parse(await readFile(path, 'utf8')) as BundleManifest;
  const t = m.embed.table as NonNullable<BundleManifest['embed']['table']>;
  const rowBytes = HIDDEN * 2;
  const small = await readFile(join(dir, t.file));
  const textRows = m.embed.codecRowOffset;
  const filler = Buffer.from(toHalfArray(uniformWeights(1, 'bench/filler', 1024 * HIDDEN, 1)).buffer);
  const file = await open(join(dir, t.file), 'w');
  try {
    await file.write(small.subarray(0, textRows * rowBytes));
    for (let r = textRows; r < TEXT_ROWS; r += 1024) await file.write(filler.subarray(0, Math.min(1024, TEXT_ROWS - r) * rowBytes));
    await file.write(small.subarray(textRows * rowBytes));
  } finally {
    await file.close();
  }
  t.rows += TEXT_ROWS - textRows;
  m.embed.codecRowOffset = TEXT_ROWS;
  await writeFile(path, JSON.stringify(m, null, 2));
  return t.rows * rowBytes;
}

/**
 * Opening a bundle whose embedding table is a 151 936 × 1024 float16 file (≈ 311 MB) must grow RSS by
 * less than 100 MB beyond the ONNX sessions: each bundle is opened in a fresh child process, and the
 * same bundle with its 262-row table gives the sessions' own growth, subtracted.
 */
export async function benchLazyTable(): Promise<LazyTableBench> {
  const root = await mkdtemp(join(tmpdir(), 'parity-bench-lazy-table-'));
  try {
    const small = join(root, 'small-table');
    await writeDemoBundle(small, 1, { config: CONFIG, presets: ['eager'], precisions: ['fp32'], faultVariants: false });
    const large = join(root, 'large-table');
    await cp(small, large, { recursive: true });
    const tableBytes = await growTextRows(large);
    const s = await measure(small);
    const l = await measure(large);
    const growth = (r: ChildReading): number => r.opened - r.before;
    return {
      textRows: TEXT_ROWS,
      hidden: HIDDEN,
      tableFileMb: tableBytes / (1024 * 1024),
      openGrowthMb: { largeTable: growth(l), smallTable: growth(s) },
      tableGrowthMb: growth(l) - growth(s),
      synthesisGrowthMb: { largeTable: l.synthesized - l.before, smallTable: s.synthesized - s.before },
      openMs: { largeTable: l.openMs, smallTable: s.openMs },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
