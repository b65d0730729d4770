import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BUNDLE_FORMAT, type BatchSection, type BundleManifest, type NetworkExport } from '../bundle/manifest.js';
import { BATCH_DIM, codePredictorContract, embedContract, talkerContract, vocoderContract, type Contract } from '../bundle/tensor-contract.js';
import { buildCodePredictor, buildEmbed, buildTalker, codecRow, embedTableValues, type Precision } from './decoder-models.js';
import type { DecoderMode } from './decoder-graph.js';
import { demoConfigProblems } from './demo-config-checks.js';
import { codecRowsPerCodebook, DEMO, DEMO_SEED, talkerVocabOf, type DemoConfig } from './demo-config.js';
import { embedTableBytes, TABLE_TENSOR } from './embed-table-writer.js';
import { buildVocoder } from './vocoder-graph.js';

const floatOf = (p: Precision): 'float32' | 'float16' => (p === 'fp16' ? 'float16' : 'float32');

/**
 * What to build besides the seed. The defaults are the demo bundle; tests pass other sizes and fewer
 * exports to stand in for a user's own export (e.g. only `eager` and `fp32`, as a plain Optimum export).
 */
export interface DemoBuildOptions {
  config?: DemoConfig;
  presets?: readonly DecoderMode[];
  precisions?: readonly Precision[];
  /** Write the `*-fp16-overflow` talker variants (default true). */
  faultVariants?: boolean;
  /**
   * The batched exports (bundle.json `batch`), fp32 only: eager with a symbolic batch, graph at each of
   * `graphBuckets`, for the presets built. `false`: none, a batch-1-only bundle. Default: DEMO_GRAPH_BUCKETS
   * with the built-in config (no `config` given), none with another.
   */
  batch?: false | { graphBuckets: readonly number[] };
}

/** The demo's graph batch buckets, as a CUDA-graph runner captures a few batch sizes (batch 1 runs the unbatched exports). */
export const DEMO_GRAPH_BUCKETS: readonly number[] = [2, 4, 8];

/** Sizes the builder's graphs assume; the loader checks the rest of the manifest itself. */
function checkConfig(c: DemoConfig, faultVariants: boolean): void {
  const problem = demoConfigProblems(c, faultVariants)[0];
  if (problem) throw new Error(`demo builder config: ${problem.message}`);
}

const UNTRAINED = 'untrained fixed-seed weights, NOT a trained voice. It makes a voiced, pitched, vowel-like sound that follows the text length.';

/**
 * The demo's own name and description for the demo config and seed (the built-in bundle's bytes must
 * not change), else what the bundle is: the demo architecture at other sizes, said in the sizes that
 * differ most between exports, so `parity bundle check` and the studio do not call it the built-in one.
 */
function nameAndDescription(c: DemoConfig, seed: number): { name: string; description: string } {
  const demoSizes = isDeepStrictEqual(c, DEMO);
  if (demoSizes && seed === DEMO_SEED) return { name: 'demo', description: `Built-in demo bundle, seed ${seed}: ${UNTRAINED}` };
  // Other weights than the built-in bundle's: the studio must not label it "Demo bundle".
  if (demoSizes) return { name: 'demo-custom', description: `Demo architecture at the built-in sizes, seed ${seed} (the built-in bundle's is ${DEMO_SEED}): ${UNTRAINED}` };
  const dec = (d: DemoConfig['talker']) => `${d.layers} layers, hidden ${d.hidden}, ${d.heads}/${d.kvHeads} heads × ${d.headDim}`;
  const sizes = `${c.sampleRate} Hz, ${c.frameRate} frames/s, ${c.codebooks} codebooks × ${c.codebookSize} codes; talker ${dec(c.talker)}; code predictor ${dec(c.codePredictor)}${beyondDemo(c)}`;
  return { name: 'demo-custom', description: `Demo architecture, custom config (${sizes}), seed ${seed}: ${UNTRAINED}` };
}

/** The config's fields beyond the demo's shape, for the description ("" for none). */
function beyondDemo(c: DemoConfig): string {
  const used = (['talkerVocab', 'codebookSizes', 'codePredictorProjection', 'prefill', 'textConditioning', 'embedTable'] as const).filter((k) => c[k] !== undefined);
  return used.length ? `; with ${used.join(', ')}` : '';
}

/** Every file of the demo bundle, name -> bytes, in a fixed order. Pure: same seed and options, same bytes. */
export function demoBundleFiles(seed = DEMO_SEED, opts: DemoBuildOptions = {}): Map<string, Uint8Array> {
  const cfg: DemoConfig = opts.config ?? DEMO;
  const PRESETS = opts.presets ?? (['eager', 'graph'] as const);
  const PRECISIONS = opts.precisions ?? (['fp32', 'fp16'] as const);
  const faultVariants = opts.faultVariants ?? true;
  checkConfig(cfg, faultVariants);
  const files = new Map<string, Uint8Array>();
  const exp = (file: string, c: Contract): NetworkExport => ({ file, ...c });
  const talkerExports: Record<string, NetworkExport> = {};
  const cpExports: Record<string, NetworkExport> = {};
  const vocoderExports: Record<string, NetworkExport> = {};

  const tableRows = cfg.textVocab + cfg.codebooks * codecRowsPerCodebook(cfg);
  const tableFile = cfg.embedTable ? `embed.${cfg.embedTable.dtype === 'float16' ? 'fp16' : 'fp32'}.${cfg.embedTable.format === 'raw' ? 'bin' : 'safetensors'}` : undefined;
  if (cfg.embedTable && tableFile) files.set(tableFile, embedTableBytes(embedTableValues(seed, cfg), tableRows, cfg.talker.hidden, cfg.embedTable.format, cfg.embedTable.dtype));
  else files.set('embed.onnx', buildEmbed(seed, cfg));
  const vocab = talkerVocabOf(cfg);
  const cpInput = cfg.codePredictorProjection ? cfg.talker.hidden : cfg.codePredictor.hidden;
  for (const mode of PRESETS) {
    for (const p of PRECISIONS) {
      const talker = `talker.${mode}.${p}.onnx`;
      files.set(talker, buildTalker(seed, mode, p, false, cfg));
      talkerExports[`${mode}-${p}`] = exp(talker, talkerContract(cfg.talker, vocab, mode, floatOf(p)));
      if (faultVariants) {
        const overflow = `talker.${mode}.${p}.fp16-overflow.onnx`;
        files.set(overflow, buildTalker(seed, mode, p, true, cfg));
        talkerExports[`${mode}-${p}-fp16-overflow`] = exp(overflow, talkerContract(cfg.talker, vocab, mode, floatOf(p)));
      }
      const cp = `code-predictor.${mode}.${p}.onnx`;
      files.set(cp, buildCodePredictor(seed, mode, p, cfg));
      cpExports[`${mode}-${p}`] = exp(cp, codePredictorContract(cfg.codePredictor, cfg.codebookSize, mode, floatOf(p), cpInput));
    }
  }
  // The built-in demo's sizes get the batched exports unless told otherwise; another config only when asked.
  const batchOpt = opts.batch ?? (opts.config === undefined ? { graphBuckets: DEMO_GRAPH_BUCKETS } : false);
  const batch = batchOpt === false || !PRECISIONS.includes('fp32') ? undefined : batchExports(files, seed, cfg, PRESETS, batchOpt.graphBuckets);
  for (const p of PRECISIONS) {
    const file = `vocoder.${p}.onnx`;
    files.set(file, buildVocoder(seed, p, cfg));
    vocoderExports[p] = exp(file, vocoderContract(cfg.codebooks));
  }

  const sizes = (s: DemoConfig['talker']) => ({
    layers: s.layers,
    heads: s.heads,
    kvHeads: s.kvHeads,
    headDim: s.headDim,
    hidden: s.hidden,
    maxPositions: s.maxPositions,
  });
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    ...nameAndDescription(cfg, seed),
    sampleRate: cfg.sampleRate,
    frameRate: cfg.frameRate,
    hopLength: cfg.hopLength,
    codebooks: cfg.codebooks,
    codebookSize: cfg.codebookSize,
    ...(cfg.codebookSizes ? { codebookSizes: cfg.codebookSizes } : {}),
    specialCodes: { eos: cfg.eosCode, bos: cfg.bosCode },
    text: { tokenizer: 'byte', ...(cfg.prefill ? {} : { bos: cfg.textBos }), framesPerChar: cfg.framesPerChar, maxBytes: cfg.maxTextBytes },
    maxFrames: cfg.maxFrames,
    embed: {
      codecRowOffset: codecRow(0, 0, cfg),
      codecRowsPerCodebook: codecRowsPerCodebook(cfg),
      ...(cfg.embedTable && tableFile
        ? { table: { file: tableFile, format: cfg.embedTable.format, dtype: cfg.embedTable.dtype, rows: tableRows, ...(cfg.embedTable.format === 'safetensors' ? { tensor: TABLE_TENSOR } : {}) } }
        : { export: exp('embed.onnx', embedContract(cfg.talker.hidden)) }),
    },
    talker: {
      ...sizes(cfg.talker),
      vocab,
      ...(vocab > cfg.codebookSize + 1 ? { specialIds: { suppress: 'all-except-eos' as const, ...(cfg.specialCodeNames ? { names: cfg.specialCodeNames } : {}) } } : {}),
      ...(cfg.prefill ? { prefill: cfg.prefill } : {}),
      ...(cfg.textConditioning ? { textConditioning: cfg.textConditioning } : {}),
      exports: talkerExports,
    },
    codePredictor: {
      ...sizes(cfg.codePredictor),
      ...(cfg.codePredictorProjection ? { projection: { from: cfg.talker.hidden, to: cfg.codePredictor.hidden } } : {}),
      exports: cpExports,
    },
    vocoder: { leftContextFrames: cfg.vocoder.leftContextFrames, chunkFrames: cfg.vocoder.chunkFrames, exports: vocoderExports },
    ...(batch ? { batch } : {}),
  };
  files.set('bundle.json', new TextEncoder().encode(JSON.stringify(manifest, null, 2) + '\n'));
  return files;
}

/**
 * Builds the fp32 batched exports into `files` and returns bundle.json's `batch`: the same weights as
 * the batch-1 exports, whose bytes these leave untouched (they are separate files).
 */
function batchExports(files: Map<string, Uint8Array>, seed: number, cfg: DemoConfig, presets: readonly DecoderMode[], graphBuckets: readonly number[]): BatchSection {
  const talker: Record<string, NetworkExport> = {};
  const codePredictor: Record<string, NetworkExport> = {};
  const vocab = talkerVocabOf(cfg);
  const cpInput = cfg.codePredictorProjection ? cfg.talker.hidden : cfg.codePredictor.hidden;
  const add = (mode: DecoderMode, batch: number | typeof BATCH_DIM): void => {
    const key = mode === 'eager' ? 'eager-fp32' : `graph-fp32@${batch}`;
    const suffix = batch === BATCH_DIM ? 'batch' : `batch${batch}`;
    const t = `talker.${mode}.fp32.${suffix}.onnx`;
    const c = `code-predictor.${mode}.fp32.${suffix}.onnx`;
    files.set(t, buildTalker(seed, mode, 'fp32', false, cfg, batch));
    files.set(c, buildCodePredictor(seed, mode, 'fp32', cfg, batch));
    talker[key] = { file: t, ...talkerContract(cfg.talker, vocab, mode, 'float32', batch) };
    codePredictor[key] = { file: c, ...codePredictorContract(cfg.codePredictor, cfg.codebookSize, mode, 'float32', cpInput, batch) };
  };
  if (presets.includes('eager')) add('eager', BATCH_DIM);
  if (presets.includes('graph')) for (const b of graphBuckets) add('graph', b);
  return { ...(presets.includes('graph') ? { graphBuckets: [...graphBuckets] } : {}), talker, codePredictor };
}

/** Writes the demo bundle into `outDir` (created if missing). */
export async function writeDemoBundle(outDir: string, seed = DEMO_SEED, opts: DemoBuildOptions = {}): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = demoBundleFiles(seed, opts);
  for (const [name, bytes] of files) await writeFile(join(outDir, name), bytes);
  return [...files.keys()];
}
