import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FORMAT, type BundleManifest, type NetworkExport } from '../bundle/manifest.js';
import { codePredictorContract, embedContract, talkerContract, vocoderContract, type Contract } from '../bundle/tensor-contract.js';
import { buildCodePredictor, buildEmbed, buildTalker, codecRow, type Precision } from './decoder-models.js';
import type { DecoderMode } from './decoder-graph.js';
import { DEMO, DEMO_SEED, type DemoConfig } from './demo-config.js';
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
}

/** Sizes the builder's graphs assume; the loader checks the rest of the manifest itself. */
function checkConfig(c: DemoConfig, faultVariants: boolean): void {
  const fail = (msg: string): never => {
    throw new Error(`demo builder config: ${msg}`);
  };
  for (const [name, d] of [['talker', c.talker], ['codePredictor', c.codePredictor]] as const) {
    if (d.headDim % 2 !== 0) fail(`${name}.headDim (${d.headDim}) must be even: RoPE rotates halves`);
    if (d.heads % d.kvHeads !== 0) fail(`${name}.heads (${d.heads}) must be a multiple of kvHeads (${d.kvHeads})`);
  }
  if (c.eosCode !== c.codebookSize || c.bosCode !== c.codebookSize + 1) fail(`eosCode/bosCode must be codebookSize, codebookSize + 1 (${c.codebookSize}, ${c.codebookSize + 1}): the codec rows are codes, EOS, BOS`);
  if (c.textVocab !== c.textBos + 1 || c.textBos < 256) fail(`textVocab (${c.textVocab}) must be textBos + 1 with textBos ≥ 256 (byte ids, then BOS)`);
  if (faultVariants && c.overflow.layer >= c.talker.layers) fail(`overflow.layer (${c.overflow.layer}) must be a talker layer (< ${c.talker.layers}), or build without faultVariants`);
}

/** Every file of the demo bundle, name -> bytes, in a fixed order. Pure: same seed and options, same bytes. */
export function demoBundleFiles(seed = DEMO_SEED, opts: DemoBuildOptions = {}): Map<string, Uint8Array> {
  const cfg = opts.config ?? DEMO;
  const PRESETS = opts.presets ?? (['eager', 'graph'] as const);
  const PRECISIONS = opts.precisions ?? (['fp32', 'fp16'] as const);
  const faultVariants = opts.faultVariants ?? true;
  checkConfig(cfg, faultVariants);
  const files = new Map<string, Uint8Array>();
  const exp = (file: string, c: Contract): NetworkExport => ({ file, ...c });
  const talkerExports: Record<string, NetworkExport> = {};
  const cpExports: Record<string, NetworkExport> = {};
  const vocoderExports: Record<string, NetworkExport> = {};

  files.set('embed.onnx', buildEmbed(seed, cfg));
  for (const mode of PRESETS) {
    for (const p of PRECISIONS) {
      const talker = `talker.${mode}.${p}.onnx`;
      files.set(talker, buildTalker(seed, mode, p, false, cfg));
      talkerExports[`${mode}-${p}`] = exp(talker, talkerContract(cfg.talker, cfg.codebookSize + 1, mode, floatOf(p)));
      if (faultVariants) {
        const overflow = `talker.${mode}.${p}.fp16-overflow.onnx`;
        files.set(overflow, buildTalker(seed, mode, p, true, cfg));
        talkerExports[`${mode}-${p}-fp16-overflow`] = exp(overflow, talkerContract(cfg.talker, cfg.codebookSize + 1, mode, floatOf(p)));
      }
      const cp = `code-predictor.${mode}.${p}.onnx`;
      files.set(cp, buildCodePredictor(seed, mode, p, cfg));
      cpExports[`${mode}-${p}`] = exp(cp, codePredictorContract(cfg.codePredictor, cfg.codebookSize, mode, floatOf(p)));
    }
  }
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
    name: 'demo',
    description: `Built-in demo bundle, seed ${seed}: untrained fixed-seed weights, NOT a trained voice. It makes a voiced, pitched, vowel-like sound that follows the text length.`,
    sampleRate: cfg.sampleRate,
    frameRate: cfg.frameRate,
    hopLength: cfg.hopLength,
    codebooks: cfg.codebooks,
    codebookSize: cfg.codebookSize,
    specialCodes: { eos: cfg.eosCode, bos: cfg.bosCode },
    text: { tokenizer: 'byte', bos: cfg.textBos, framesPerChar: cfg.framesPerChar, maxBytes: cfg.maxTextBytes },
    maxFrames: cfg.maxFrames,
    embed: {
      codecRowOffset: codecRow(0, 0, cfg),
      codecRowsPerCodebook: cfg.codebookSize + 2,
      export: exp('embed.onnx', embedContract(cfg.talker.hidden)),
    },
    talker: { ...sizes(cfg.talker), vocab: cfg.codebookSize + 1, exports: talkerExports },
    codePredictor: { ...sizes(cfg.codePredictor), exports: cpExports },
    vocoder: { leftContextFrames: cfg.vocoder.leftContextFrames, chunkFrames: cfg.vocoder.chunkFrames, exports: vocoderExports },
  };
  files.set('bundle.json', new TextEncoder().encode(JSON.stringify(manifest, null, 2) + '\n'));
  return files;
}

/** Writes the demo bundle into `outDir` (created if missing). */
export async function writeDemoBundle(outDir: string, seed = DEMO_SEED, opts: DemoBuildOptions = {}): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = demoBundleFiles(seed, opts);
  for (const [name, bytes] of files) await writeFile(join(outDir, name), bytes);
  return [...files.keys()];
}
