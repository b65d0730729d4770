import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { buildTalker } from '../../../../electron/engine/demo/decoder-models.js';
import type { DemoConfig } from '../../../../electron/engine/demo/demo-config.js';
import type { TensorSpec } from '../../../../electron/engine/bundle/manifest.js';
import { Engine } from '../../../../electron/engine/engine.js';
import { bundleRoot, editManifest, editModel, nodeProto, ONNX_TYPE, SEED, SMALL, valueInfo } from './small-bundle.js';

// Export mistakes a user meets when bringing their own talker, each on a copy of an eager-only fp32
// SMALL bundle (talker: 2 layers, kvHeads 1, headDim 8, vocab 33). Already covered elsewhere and not
// repeated: fp16 model under an fp32 key, wrong declared name/rank/dtype (bundle-validation.test.ts).
let root: Awaited<ReturnType<typeof bundleRoot>>;
let base: string;
let n = 0;
const TALKER = 'talker.eager.fp32.onnx';

beforeAll(async () => {
  root = await bundleRoot('byo-mistakes-');
  base = await root.bundle('base', { presets: ['eager'], precisions: ['fp32'] });
});
afterAll(() => root?.dispose());

async function copy(): Promise<string> {
  const dir = join(root.root, `v${n++}`);
  await cp(base, dir, { recursive: true });
  return dir;
}

/** A copy whose talker file is built from SMALL with `talker` (and top-level) sizes changed; bundle.json unchanged. */
async function withTalkerFrom(change: Partial<DemoConfig>, talker: Partial<DemoConfig['talker']> = {}): Promise<string> {
  const dir = await copy();
  await writeFile(join(dir, TALKER), buildTalker(SEED, 'eager', 'fp32', false, { ...SMALL, ...change, talker: { ...SMALL.talker, ...talker } }));
  return dir;
}

async function openError(dir: string): Promise<BundleError> {
  const err = await Engine.open(dir).then(
    async (e) => {
      await e.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BundleError);
  return err as BundleError;
}

describe('realistic export mistakes: one BundleError naming file, tensor, expected and found', () => {
  it('KV heads in the model ≠ bundle.json talker.kvHeads', async () => {
    const dir = await withTalkerFrom({}, { kvHeads: 2 });
    const err = await openError(dir);
    expect(err.message).toBe(
      `${join(dir, TALKER)}: input "past_key_values.0.key" (talker eager-fp32): expected float32 [1, 1, ?, 8] (bundle.json), found float32 [1, 2, ?, 8] in the model: dimension 1: expected 1 (bundle.json talker.kvHeads), found 2`,
    );
    expect(err.where).toBe(`${join(dir, TALKER)}:past_key_values.0.key`);
  });

  it('head dim in the model ≠ bundle.json talker.headDim', async () => {
    const err = await openError(await withTalkerFrom({}, { headDim: 4 }));
    expect(err.message).toMatch(/input "past_key_values\.0\.key" \(talker eager-fp32\): expected float32 \[1, 1, \?, 8\] \(bundle\.json\), found float32 \[1, 1, \?, 4\] in the model: dimension 3: expected 8 \(bundle\.json talker\.headDim\), found 4$/);
  });

  it('bundle.json kvHeads edited but its tensor list not: the manifest disagrees with itself', async () => {
    const dir = await copy();
    await editManifest(dir, (m) => {
      m.talker.kvHeads = 2;
    });
    const err = await openError(dir);
    expect(err.message).toBe(
      `${join(dir, 'bundle.json')}: talker eager-fp32 (${TALKER}) input "past_key_values.0.key": expected float32 [1, 2, ?, 8] (required by bundle.json's sizes and the export's key), ` +
        `found float32 [1, 1, ?, 8] in bundle.json's own tensor list talker.exports["eager-fp32"].inputs: dimension 1: expected 2 (bundle.json talker.kvHeads), found 1`,
    );
  });

  it('a missing present.{i}.key output', async () => {
    const dir = await copy();
    await editModel(dir, TALKER, (g) => {
      g.output = (g.output ?? []).filter((o) => o.name !== 'present.1.key');
    });
    const err = await openError(dir);
    expect(err.message).toBe(
      `${join(dir, TALKER)}: output "present.1.key" (talker eager-fp32) is declared in bundle.json as float32 [1, 1, ?, 8] but the model has no such output; found: "present.0.key", "present.0.value", "present.1.value", "logits", "last_hidden_state"`,
    );
    expect(err.where).toBe(`${join(dir, TALKER)}:present.1.key`);
  });

  it('logits with another vocab size than talker.vocab (codebookSize + 1 = 33)', async () => {
    const err = await openError(await withTalkerFrom({ codebookSize: 40 }));
    expect(err.message).toMatch(/talker\.eager\.fp32\.onnx: output "logits" \(talker eager-fp32\): expected float32 \[1, \?, 33\] \(bundle\.json\), found float32 \[1, \?, 41\] in the model: dimension 2: expected 33 \(bundle\.json talker\.vocab\), found 41$/);
  });

  it('int32 position_ids (the engine feeds int64)', async () => {
    const dir = await copy();
    await editModel(dir, TALKER, (g) => {
      // Keep the model valid: an int32 input cast to int64 under the name the graph already uses.
      for (const node of g.node ?? []) node.input = (node.input ?? []).map((x) => (x === 'position_ids' ? 'position_ids_i64' : x));
      g.node = [nodeProto('Cast', ['position_ids'], ['position_ids_i64'], [{ name: 'to', type: 2, i: ONNX_TYPE.INT64 }]), ...(g.node ?? [])];
      g.input = (g.input ?? []).map((i) => (i.name === 'position_ids' ? valueInfo('position_ids', ONNX_TYPE.INT32, [1, 'sequence_length']) : i));
    });
    const err = await openError(dir);
    expect(err.message).toBe(`${join(dir, TALKER)}: input "position_ids" (talker eager-fp32): expected int64 [1, ?] (bundle.json), found int32 [1, ?] in the model (the engine feeds int64 here)`);
  });

  it('an extra required input the engine never feeds (Optimum merged decoders have use_cache_branch)', async () => {
    const dir = await copy();
    await editModel(dir, TALKER, (g) => {
      g.input = [...(g.input ?? []), valueInfo('use_cache_branch', ONNX_TYPE.BOOL, [1])];
      g.node = [...(g.node ?? []), nodeProto('Identity', ['use_cache_branch'], ['use_cache_branch_out'])];
      g.output = [...(g.output ?? []), valueInfo('use_cache_branch_out', ONNX_TYPE.BOOL, [1])];
    });
    const err = await openError(dir);
    expect(err.message).toMatch(
      /talker\.eager\.fp32\.onnx: input "use_cache_branch" \(talker eager-fp32\) of the model, bool \[1\], is required by the model but the engine never feeds it \(it feeds only "inputs_embeds", "attention_mask", "position_ids", "past_key_values\.0\.key", .*"past_key_values\.1\.value"\); re-export without it$/,
    );
    // Declaring it in bundle.json does not help: the engine would still not feed it.
    await editManifest(dir, (m) => {
      m.talker.exports['eager-fp32'].inputs.push({ name: 'use_cache_branch', dtype: 'bool', shape: [1] });
    });
    expect((await openError(dir)).message).toMatch(/bundle\.json: talker eager-fp32 \(talker\.eager\.fp32\.onnx\) declares input "use_cache_branch" \(bool \[1\]\), but the engine never feeds it \(it feeds only "inputs_embeds", /);
  });

  it('a float16 export declared fp32 says which key it belongs under', async () => {
    const dir = await copy();
    await writeFile(join(dir, TALKER), buildTalker(SEED, 'eager', 'fp16', false, SMALL));
    expect((await openError(dir)).message).toMatch(/input "inputs_embeds" \(talker eager-fp32\): expected float32 \[1, \?, 32\] \(bundle\.json\), found float16 \[1, \?, 32\] in the model: this is a float16 export, declare it under a "-fp16" key$/);
  });

  it('talker.layers disagrees with the model’s past_key_values inputs (model deeper, model shallower)', async () => {
    const deeper = await withTalkerFrom({}, { layers: 3 });
    expect((await openError(deeper)).message).toBe(
      `${join(deeper, TALKER)}: the model has past_key_values for 3 layers (past_key_values.0.key … past_key_values.2.key), but bundle.json talker.layers = 2 (talker eager-fp32)`,
    );
    const shallower = await withTalkerFrom({}, { layers: 1 });
    expect((await openError(shallower)).message).toMatch(/the model has past_key_values for 1 layer \(past_key_values\.0\.key\), but bundle\.json talker\.layers = 2 \(talker eager-fp32\)$/);
  });

  it('talker.layers lowered in bundle.json but the tensor list still has layer 1', async () => {
    const dir = await copy();
    await editManifest(dir, (m) => {
      m.talker.layers = 1;
    });
    expect((await openError(dir)).message).toMatch(
      /bundle\.json: talker eager-fp32 \(talker\.eager\.fp32\.onnx\) declares input "past_key_values\.1\.key" \(float32 \[1, 1, \?, 8\]\), but bundle\.json talker\.layers = 1, so the engine feeds past_key_values\.0 only$/,
    );
  });
});

describe('static vs dynamic exports under the wrong key, and what a dynamic export may leave symbolic', () => {
  it('the eager (dynamic) file declared as graph-fp32 is refused at load, naming the symbolic dimension', async () => {
    const dir = await root.bundle(`g${n++}`, { precisions: ['fp32'] });
    await cp(join(dir, TALKER), join(dir, 'talker.graph.fp32.onnx'));
    expect((await openError(dir)).message).toMatch(
      /talker\.graph\.fp32\.onnx: input "inputs_embeds" \(talker graph-fp32\): expected float32 \[1, 1, 32\] \(bundle\.json\), found float32 \[1, \?, 32\] in the model: dimension 1: expected fixed 1, found symbolic "sequence_length": a graph export has static shapes only \(is this a dynamic-shape eager export\?\)$/,
    );
  });

  it('the graph (static) file declared as eager-fp32 is refused at load, not at the first run', async () => {
    const dir = await root.bundle(`g${n++}`, { precisions: ['fp32'] });
    await cp(join(dir, 'talker.graph.fp32.onnx'), join(dir, TALKER));
    expect((await openError(dir)).message).toMatch(
      /talker\.eager\.fp32\.onnx: input "inputs_embeds" \(talker eager-fp32\): expected float32 \[1, \?, 32\] \(bundle\.json\), found float32 \[1, 1, 32\] in the model: dimension 1: expected symbolic \("sequence_length": the engine feeds varying sizes here\), found fixed 1 in the model \(is this a static-shape graph export declared as eager\?\)$/,
    );
  });

  it('a symbolic batch dimension ("batch_size", as HF Optimum exports) loads and gives the same audio', async () => {
    const dir = await copy();
    const batch = (dims: (number | string)[]): (number | string)[] => ['batch_size', ...dims.slice(1)];
    await editModel(dir, TALKER, (g) => {
      for (const v of [...(g.input ?? []), ...(g.output ?? [])]) {
        const dim = v.type?.tensorType?.shape?.dim;
        if (dim?.[0]) dim[0] = { dimParam: 'batch_size' };
      }
    });
    await editManifest(dir, (m) => {
      const e = m.talker.exports['eager-fp32'];
      for (const t of [...e.inputs, ...e.outputs] as TensorSpec[]) t.shape = batch(t.shape);
    });
    const [a, b] = [await Engine.open(base), await Engine.open(dir)];
    try {
      expect(b.info().files.find((f) => f.file === TALKER)?.inputs[0]).toBe('inputs_embeds float32 [batch_size, sequence_length, 32]');
      const req = { text: 'abc', profile: parseProfile('eager'), seed: 1, sampling: GREEDY };
      const [ra, rb] = [await a.synthesize(req), await b.synthesize(req)];
      expect(Buffer.from(rb.audio.buffer).equals(Buffer.from(ra.audio.buffer))).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
