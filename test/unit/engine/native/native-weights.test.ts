import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import type { LoadedBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { DEMO, DEMO_SEED } from '../../../../electron/engine/demo/demo-config.js';
import { uniformWeights } from '../../../../electron/engine/demo/weight-rng.js';
import { readNativeModel } from '../../../../electron/engine/native/native-weights.js';
import { demoBundle } from '../demo-bundle.js';

let bundle: LoadedBundle;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ bundle, dispose } = await demoBundle());
});
afterAll(() => dispose());

const withFile = (b: LoadedBundle, file: string, bytes: Uint8Array): LoadedBundle => ({ ...b, files: new Map(b.files).set(file, bytes) });

describe('weight hand-over from the bundle ONNX initializers', () => {
  it('reads every tensor with the shapes bundle.json implies and byte sizes that match', () => {
    const { config, weights, files } = readNativeModel(bundle);
    const m = bundle.manifest;
    expect(files).toEqual({ embed: 'embed.onnx', talker: 'talker.eager.fp32.onnx', codePredictor: 'code-predictor.eager.fp32.onnx', vocoder: 'vocoder.fp32.onnx' });
    expect(config.talker).toMatchObject({ layers: m.talker.layers, heads: m.talker.heads, kvHeads: m.talker.kvHeads, headDim: m.talker.headDim, hidden: m.talker.hidden });
    // ffn and the vocoder sizes are not in bundle.json: they come from the ONNX shapes, so compare with demo-config.ts.
    expect(config.talker.ffn).toBe(DEMO.talker.ffn);
    expect(config.codePredictor.ffn).toBe(DEMO.codePredictor.ffn);
    expect([config.vocChannels, config.vocConvLayers, config.vocKernel, config.harmonics]).toEqual([DEMO.vocoder.channels, DEMO.vocoder.convLayers, DEMO.vocoder.kernel, DEMO.vocoder.harmonics]);
    // Constants read from the graph's own nodes: f0 range and RMSNorm eps (float32 of 1e-6).
    expect([config.f0Min, config.f0Range]).toEqual([DEMO.vocoder.f0Min, DEMO.vocoder.f0Max - DEMO.vocoder.f0Min]);
    expect(config.talker.eps).toBe(Math.fround(1e-6));
    expect(config.maxTextTokens).toBe(1 + DEMO.maxTextBytes); // BOS + the demo's byte limit

    // 4 talker layers x 9 + norm + rope + lm_head; 2 code-predictor layers x 9 + norm + rope + lm_heads;
    // 2 embedding tables; vocoder: table + 3 convs x 2 + head x 2 + rolloff, omega, ramp.
    expect(Object.keys(weights).length).toBe(4 * 9 + 3 + 2 * 9 + 3 + 2 + 1 + 6 + 2 + 3);
    for (const [name, t] of Object.entries(weights)) {
      expect(t.data.length, name).toBe(t.dims.reduce((a, b) => a * b, 1));
      expect(t.data.byteLength, name).toBe(4 * t.dims.reduce((a, b) => a * b, 1));
    }
    const H = m.talker.hidden;
    expect(weights['talker/lm_head.weight'].dims).toEqual([H, m.talker.vocab]);
    expect(weights['code_predictor/lm_heads.weight'].dims).toEqual([m.codebooks - 1, H, m.codebookSize]);
    expect(weights['embed/codec_embedding.weight'].dims).toEqual([m.codebooks * m.embed.codecRowsPerCodebook, H]);
    expect(weights['talker/layers.3.attn.k_proj.weight'].dims).toEqual([H, m.talker.kvHeads * m.talker.headDim]);
  });

  it('hands over the generator values themselves (independent re-derivation from weight-rng.ts)', () => {
    const { weights } = readNativeModel(bundle);
    // decoder-graph.ts: input_layernorm weight = uniform(std 0.1) + 1 under "talker/<full name>".
    const norm = uniformWeights(DEMO_SEED, 'talker/layers.2.input_layernorm.weight', 64, 0.1).map((v) => v + 1);
    expect(Array.from(weights['talker/layers.2.input_layernorm.weight'].data)).toEqual(Array.from(norm));
    // decoder-models.ts: lm_head = uniform(std 1/sqrt(hidden)) under "talker/lm_head.weight".
    const head = uniformWeights(DEMO_SEED, 'talker/lm_head.weight', 64 * 129, 1 / Math.sqrt(64));
    expect(Array.from(weights['talker/lm_head.weight'].data)).toEqual(Array.from(head));
  });

  it('refuses a manifest whose sizes disagree with the ONNX shapes, naming file, tensor, expected and found', () => {
    const wrong = { ...bundle, manifest: { ...bundle.manifest, talker: { ...bundle.manifest.talker, heads: 8 } } };
    expect(() => readNativeModel(wrong)).toThrow(BundleError);
    expect(() => readNativeModel(wrong)).toThrow(/^talker\.eager\.fp32\.onnx: initializer "layers\.0\.attn\.(q_rope\.)?q_proj\.weight": expected \[64, 128\], found \[64, 64\]$/);
  });

  it('refuses a model without the initializers it needs', () => {
    const swapped = withFile(bundle, 'talker.eager.fp32.onnx', bundle.files.get('embed.onnx') as Uint8Array);
    expect(() => readNativeModel(swapped)).toThrow('talker.eager.fp32.onnx: initializer "layers.0.mlp.gate_proj.weight" not found');
  });

  it('refuses raw data whose byte size does not match the shape', () => {
    const { onnx } = onnxProto;
    const model = onnx.ModelProto.decode(bundle.files.get('vocoder.fp32.onnx') as Uint8Array);
    const init = model.graph?.initializer?.find((t) => t.name === 'head.bias');
    if (!init?.rawData) throw new Error('demo vocoder has no head.bias raw data');
    init.rawData = init.rawData.subarray(0, init.rawData.length - 4);
    const broken = withFile(bundle, 'vocoder.fp32.onnx', onnx.ModelProto.encode(model).finish());
    expect(() => readNativeModel(broken)).toThrow('vocoder.fp32.onnx: initializer "head.bias": 72 bytes of raw data, expected 76 (19 float32)');
  });

  it('refuses bytes that are not an ONNX model', () => {
    const junk = withFile(bundle, 'embed.onnx', new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    expect(() => readNativeModel(junk)).toThrow(/embed\.onnx: not a readable ONNX model/);
  });
});
