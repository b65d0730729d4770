import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FORMAT, type BundleManifest, type NetworkExport } from '../bundle/manifest.js';
import { codePredictorContract, embedContract, talkerContract, vocoderContract, type Contract } from '../bundle/tensor-contract.js';
import { buildCodePredictor, buildEmbed, buildTalker, codecRow, type Precision } from './decoder-models.js';
import { DEMO, DEMO_SEED } from './demo-config.js';
import { buildVocoder } from './vocoder-graph.js';

const PRESETS = ['eager', 'graph'] as const;
const PRECISIONS: Precision[] = ['fp32', 'fp16'];
const floatOf = (p: Precision): 'float32' | 'float16' => (p === 'fp16' ? 'float16' : 'float32');

/** Every file of the demo bundle, name -> bytes, in a fixed order. Pure: same seed, same bytes. */
export function demoBundleFiles(seed = DEMO_SEED): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const exp = (file: string, c: Contract): NetworkExport => ({ file, ...c });
  const talkerExports: Record<string, NetworkExport> = {};
  const cpExports: Record<string, NetworkExport> = {};
  const vocoderExports: Record<string, NetworkExport> = {};

  files.set('embed.onnx', buildEmbed(seed));
  for (const mode of PRESETS) {
    for (const p of PRECISIONS) {
      const talker = `talker.${mode}.${p}.onnx`;
      files.set(talker, buildTalker(seed, mode, p));
      talkerExports[`${mode}-${p}`] = exp(talker, talkerContract(DEMO.talker, DEMO.codebookSize + 1, mode, floatOf(p)));
      const overflow = `talker.${mode}.${p}.fp16-overflow.onnx`;
      files.set(overflow, buildTalker(seed, mode, p, true));
      talkerExports[`${mode}-${p}-fp16-overflow`] = exp(overflow, talkerContract(DEMO.talker, DEMO.codebookSize + 1, mode, floatOf(p)));
      const cp = `code-predictor.${mode}.${p}.onnx`;
      files.set(cp, buildCodePredictor(seed, mode, p));
      cpExports[`${mode}-${p}`] = exp(cp, codePredictorContract(DEMO.codePredictor, DEMO.codebookSize, mode, floatOf(p)));
    }
  }
  for (const p of PRECISIONS) {
    const file = `vocoder.${p}.onnx`;
    files.set(file, buildVocoder(seed, p));
    vocoderExports[p] = exp(file, vocoderContract(DEMO.codebooks));
  }

  const sizes = (s: typeof DEMO.talker | typeof DEMO.codePredictor) => ({
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
    sampleRate: DEMO.sampleRate,
    frameRate: DEMO.frameRate,
    hopLength: DEMO.hopLength,
    codebooks: DEMO.codebooks,
    codebookSize: DEMO.codebookSize,
    specialCodes: { eos: DEMO.eosCode, bos: DEMO.bosCode },
    text: { tokenizer: 'byte', bos: DEMO.textBos, framesPerChar: DEMO.framesPerChar, maxBytes: DEMO.maxTextBytes },
    maxFrames: DEMO.maxFrames,
    embed: {
      codecRowOffset: codecRow(0, 0),
      codecRowsPerCodebook: DEMO.codebookSize + 2,
      export: exp('embed.onnx', embedContract(DEMO.talker.hidden)),
    },
    talker: { ...sizes(DEMO.talker), vocab: DEMO.codebookSize + 1, exports: talkerExports },
    codePredictor: { ...sizes(DEMO.codePredictor), exports: cpExports },
    vocoder: { leftContextFrames: DEMO.vocoder.leftContextFrames, chunkFrames: DEMO.vocoder.chunkFrames, exports: vocoderExports },
  };
  files.set('bundle.json', new TextEncoder().encode(JSON.stringify(manifest, null, 2) + '\n'));
  return files;
}

/** Writes the demo bundle into `outDir` (created if missing). */
export async function writeDemoBundle(outDir: string, seed = DEMO_SEED): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = demoBundleFiles(seed);
  for (const [name, bytes] of files) await writeFile(join(outDir, name), bytes);
  return [...files.keys()];
}
