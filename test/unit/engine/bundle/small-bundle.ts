import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { writeDemoBundle, type DemoBuildOptions } from '../../../../electron/engine/demo/build-demo-bundle.js';
import type { DemoConfig } from '../../../../electron/engine/demo/demo-config.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';

const { onnx } = onnxProto;

/**
 * A bundle shaped unlike the demo in every size a real export varies in: 16 kHz at 50 frames/s
 * (hop 320), Q = 4 codebooks of 32 codes, a 2-layer talker with 2 query heads over 1 KV head of dim 8,
 * a 3-layer code predictor with plain multi-head attention (4 heads of dim 12, heads·headDim ≠ hidden).
 * 1 (BOS) + 32 bytes + 16 frames = 49 ≤ talker.maxPositions 64.
 */
export const SMALL: DemoConfig = {
  sampleRate: 16000,
  frameRate: 50,
  hopLength: 320,
  codebooks: 4,
  codebookSize: 32,
  eosCode: 32,
  bosCode: 33,
  textVocab: 257,
  textBos: 256,
  framesPerChar: 0.5,
  maxTextBytes: 32,
  maxFrames: 16,
  talker: { hidden: 32, layers: 2, heads: 2, kvHeads: 1, headDim: 8, ffn: 48, maxPositions: 64, ropeTheta: 10000, eps: 1e-6 },
  codePredictor: { hidden: 32, layers: 3, heads: 4, kvHeads: 4, headDim: 12, ffn: 64, maxPositions: 4, ropeTheta: 10000, eps: 1e-6 },
  vocoder: { channels: 16, convLayers: 2, kernel: 3, harmonics: 8, f0Min: 90, f0Max: 200, leftContextFrames: 6, chunkFrames: 4 },
  overflow: { layer: 1, scale: 65536 },
};

export const SEED = 7;

/** A temp root for bundles; `bundle(name, opts)` writes one built from SMALL (or opts.config) into it. */
export async function bundleRoot(prefix: string) {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return {
    root,
    async bundle(name: string, opts: DemoBuildOptions = {}): Promise<string> {
      const dir = join(root, name);
      await writeDemoBundle(dir, SEED, { config: SMALL, faultVariants: false, ...opts });
      return dir;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/** Rewrites bundle.json in `dir` with `edit` applied. */
export async function editManifest(dir: string, edit: (m: BundleManifest) => void): Promise<void> {
  const path = join(dir, 'bundle.json');
  const m = JSON.parse(await readFile(path, 'utf8')) as BundleManifest;
  edit(m);
  await writeFile(path, JSON.stringify(m, null, 2));
}

/** Rewrites the ONNX model `file` in `dir` with `edit` applied to its decoded ModelProto. */
export async function editModel(dir: string, file: string, edit: (g: onnxProto.onnx.IGraphProto) => void): Promise<void> {
  const path = join(dir, file);
  const model = onnx.ModelProto.decode(await readFile(path));
  edit(model.graph as onnxProto.onnx.IGraphProto);
  await writeFile(path, onnx.ModelProto.encode(model).finish());
}

export const ONNX_TYPE = onnx.TensorProto.DataType;
export const valueInfo = (name: string, elemType: number, dims: (number | string)[]): onnxProto.onnx.IValueInfoProto =>
  onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } } });
export const nodeProto = (opType: string, input: string[], output: string[], attribute: onnxProto.onnx.IAttributeProto[] = []): onnxProto.onnx.INodeProto =>
  onnx.NodeProto.create({ opType, input, output, name: `patch.${output[0]}`, attribute });
