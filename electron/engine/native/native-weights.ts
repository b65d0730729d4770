import { BundleError } from '../../common/errors.js';
import { beyondDemoShape } from '../bundle/beyond-demo-shape.js';
import type { LoadedBundle } from '../bundle/load-bundle.js';
import { codePredictorOf, maxTextPositions, type BundleManifest, type DecoderManifest, type NetworkExport } from '../bundle/manifest.js';
import { OnnxInitializers, type FloatTensor } from './onnx-initializers.js';

export interface NativeDecoderDims {
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  hidden: number;
  ffn: number;
  maxPositions: number;
  eps: number;
}

/** Sizes the addon's Config takes (native/src/session.h), from bundle.json and the ONNX files. */
export interface NativeConfig {
  codebooks: number;
  codebookSize: number;
  talkerVocab: number;
  eos: number;
  bos: number;
  codecRowOffset: number;
  codecRowsPerCodebook: number;
  maxTextTokens: number;
  maxFrames: number;
  talker: NativeDecoderDims;
  codePredictor: NativeDecoderDims;
  vocChannels: number;
  vocConvLayers: number;
  vocKernel: number;
  harmonics: number;
  hop: number;
  sampleRate: number;
  f0Min: number;
  f0Range: number;
}

/** Weights by `<network>/<initializer name>`, the form the addon and the fixture file use. */
export type NativeWeights = Record<string, FloatTensor>;

export interface NativeModel {
  config: NativeConfig;
  weights: NativeWeights;
  /** The ONNX files the weights were read from (eager-fp32 exports: every export shares the weights). */
  files: { embed: string; talker: string; codePredictor: string; vocoder: string };
}

function exportOf(kind: string, exports: Record<string, NetworkExport>, key: string): NetworkExport {
  const e = exports[key];
  if (!e) throw new BundleError(`bundle has no ${kind} export "${key}", which backend=native reads its weights from`, `bundle.json:${kind}`);
  return e;
}

function open(bundle: LoadedBundle, exp: NetworkExport): OnnxInitializers {
  const bytes = bundle.files.get(exp.file);
  if (!bytes) throw new BundleError(`${exp.file}: named in bundle.json but not loaded`, exp.file);
  return new OnnxInitializers(exp.file, bytes);
}

/** Reads one decoder's weights (names of decoder-graph.ts) into `out` under `prefix/`; returns its dims. */
function readDecoder(onnx: OnnxInitializers, prefix: string, d: DecoderManifest, out: NativeWeights): NativeDecoderDims {
  const { hidden: H, heads, kvHeads, headDim, layers } = d;
  if (heads % kvHeads !== 0) throw new BundleError(`bundle.json: ${prefix}: heads ${heads} is not a multiple of kvHeads ${kvHeads}`, 'bundle.json');
  const ffn = onnx.dims('layers.0.mlp.gate_proj.weight')[1];
  const put = (name: string, dims: number[], alias?: string): void => {
    const stored = alias && !onnx.has(name) && onnx.has(alias) ? alias : name;
    out[`${prefix}/${name}`] = onnx.tensor(stored, dims);
  };
  for (let l = 0; l < layers; l++) {
    const p = `layers.${l}.`;
    put(`${p}input_layernorm.weight`, [H]);
    // Earlier demo bundles scoped the q/k projections under attn.q_rope / attn.k_rope.
    put(`${p}attn.q_proj.weight`, [H, heads * headDim], `${p}attn.q_rope.q_proj.weight`);
    put(`${p}attn.k_proj.weight`, [H, kvHeads * headDim], `${p}attn.k_rope.k_proj.weight`);
    put(`${p}attn.v_proj.weight`, [H, kvHeads * headDim]);
    put(`${p}attn.o_proj.weight`, [heads * headDim, H]);
    put(`${p}post_attention_layernorm.weight`, [H]);
    put(`${p}mlp.gate_proj.weight`, [H, ffn]);
    put(`${p}mlp.up_proj.weight`, [H, ffn]);
    put(`${p}mlp.down_proj.weight`, [ffn, H]);
  }
  if (onnx.has(`layers.${layers}.input_layernorm.weight`)) {
    throw new BundleError(`${onnx.file}: has a layer ${layers}, but bundle.json says ${prefix} has ${layers} layers`, onnx.file);
  }
  put('norm.weight', [H]);
  put(`const.rope_exponents_${headDim}`, [headDim / 2]);
  const eps = onnx.scalarAddend('layers.0.input_layernorm.');
  return { layers, heads, kvHeads, headDim, hidden: H, ffn, maxPositions: d.maxPositions, eps };
}

/**
 * The demo architecture's weights, parsed once from the bundle's own ONNX initializers (eager-fp32
 * exports), checked against bundle.json, for hand-over to the native addon. No second copy on disk.
 */
export function readNativeModel(bundle: LoadedBundle): NativeModel {
  const m: BundleManifest = bundle.manifest;
  const Q = m.codebooks;
  const rowsPer = m.embed.codecRowsPerCodebook;
  const embedExp = m.embed.export;
  const beyond = beyondDemoShape(m);
  if (!embedExp || beyond.length > 0) throw new BundleError(`${bundle.dir}: backend=native runs the demo architecture only; this bundle uses ${beyond.join(', ')} (run it with backend=ort)`, bundle.dir);
  const talkerExp = exportOf('talker', m.talker.exports, 'eager-fp32');
  const cp = codePredictorOf(m, 'backend=native');
  const cpExp = exportOf('code-predictor', cp.exports, 'eager-fp32');
  const vocExp = exportOf('vocoder', m.vocoder.exports as Record<string, NetworkExport>, 'fp32');
  const weights: NativeWeights = {};

  const embed = open(bundle, embedExp);
  weights['embed/text_embedding.weight'] = embed.tensor('text_embedding.weight', [m.embed.codecRowOffset, m.talker.hidden]);
  weights['embed/codec_embedding.weight'] = embed.tensor('codec_embedding.weight', [Q * rowsPer, m.talker.hidden]);

  const talkerOnnx = open(bundle, talkerExp);
  const talker = readDecoder(talkerOnnx, 'talker', m.talker, weights);
  weights['talker/lm_head.weight'] = talkerOnnx.tensor('lm_head.weight', [m.talker.hidden, m.talker.vocab]);
  const cpOnnx = open(bundle, cpExp);
  const codePredictor = readDecoder(cpOnnx, 'code_predictor', cp, weights);
  weights['code_predictor/lm_heads.weight'] = cpOnnx.tensor('lm_heads.weight', [Q - 1, cp.hidden, m.codebookSize]);

  const voc = open(bundle, vocExp);
  const [, C] = voc.dims('codec_embedding.weight');
  const put = (name: string, dims: number[]): void => {
    weights[`vocoder/${name}`] = voc.tensor(name, dims);
  };
  put('codec_embedding.weight', [Q * rowsPer, C]);
  let convLayers = 0;
  while (voc.has(`convs.${convLayers}.weight`)) convLayers++;
  const kernel = voc.dims('convs.0.weight')[2];
  for (let l = 0; l < convLayers; l++) {
    put(`convs.${l}.weight`, [C, C, kernel]);
    put(`convs.${l}.bias`, [C]);
  }
  const harmonics = voc.dims('head.bias')[0] - 3;
  put('head.weight', [3 + harmonics, C, 1]);
  put('head.bias', [3 + harmonics]);
  put('const.rolloff', [harmonics]);
  put('const.omega', [harmonics]);
  put(`const.ramp_${m.hopLength}`, [1, m.hopLength]);
  // f0 = f0Min + sigmoid(x)·(f0Max − f0Min): both constants are read from the graph's own nodes.
  const f0Min = voc.scalarInput('synth.f0', 0);
  const mul = voc.producer(voc.node('synth.f0')?.input?.[1] ?? '');
  if (!mul?.name) throw new BundleError(`${vocExp.file}: node "synth.f0" has no Mul input (f0 range)`, vocExp.file);
  const f0Range = voc.scalarInput(mul.name, 1);

  const config: NativeConfig = {
    codebooks: Q,
    codebookSize: m.codebookSize,
    talkerVocab: m.talker.vocab,
    eos: m.specialCodes.eos ?? -1, // -1: no EOS logit to mask
    bos: m.specialCodes.bos,
    codecRowOffset: m.embed.codecRowOffset,
    codecRowsPerCodebook: rowsPer,
    maxTextTokens: maxTextPositions(m.text),
    maxFrames: m.maxFrames,
    talker,
    codePredictor,
    vocChannels: C,
    vocConvLayers: convLayers,
    vocKernel: kernel,
    harmonics,
    hop: m.hopLength,
    sampleRate: m.sampleRate,
    f0Min,
    f0Range,
  };
  return { config, weights, files: { embed: embedExp.file, talker: talkerExp.file, codePredictor: cpExp.file, vocoder: vocExp.file } };
}
