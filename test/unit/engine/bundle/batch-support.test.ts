import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { Engine } from '../../../../electron/engine/engine.js';
import { bundleRoot, editManifest } from './small-bundle.js';

// The SMALL config (GQA talker with 1 KV head, a plain multi-head code predictor whose heads·headDim ≠
// hidden) with batched exports: eager (symbolic batch) and graph at buckets 2 and 4, fp32.
let r: Awaited<ReturnType<typeof bundleRoot>>;
let good: string;
let n = 0;
beforeAll(async () => {
  r = await bundleRoot('batch-support-');
  good = await r.bundle('good', { precisions: ['fp32'], batch: { graphBuckets: [2, 4] } });
});
afterAll(() => r.dispose());

async function edited(edit: (m: BundleManifest) => void): Promise<string> {
  const dir = join(r.root, `edit-${n++}`);
  await cp(good, dir, { recursive: true });
  await editManifest(dir, edit);
  return dir;
}

async function refusal(dir: string): Promise<string> {
  const error = await loadBundle(dir).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleError);
  const message = (error as BundleError).message;
  expect(message).not.toContain('\n');
  return message.replace(`${join(dir, 'bundle.json')}: `, 'bundle.json: ').replace(`${dir}/`, '');
}

const synth = (engine: Engine, profile: string) => engine.synthesize({ text: 'batch rows', profile: parseProfile(profile), seed: 0, sampling: GREEDY });

/** Largest |Δ| of the talker's logit statistics over the steps, and the first step whose codes differ (0: none). */
function difference(a: Awaited<ReturnType<typeof synth>>, b: Awaited<ReturnType<typeof synth>>): { logit: number; firstCodeStep: number } {
  let logit = 0;
  let firstCodeStep = 0;
  a.steps.forEach((s, i) => {
    const t = b.steps[i];
    for (const k of ['mean', 'std', 'min', 'max'] as const) logit = Math.max(logit, Math.abs((s.logits[k] as number) - (t.logits[k] as number)));
    if (!firstCodeStep && s.codes.join() !== t.codes.join()) firstCodeStep = s.step;
  });
  return { logit, firstCodeStep };
}

describe('bundle.json batch (docs/bundle-format.md "Batch support")', () => {
  it('another config\'s batched exports load and run: eager,batch=3 and graph,batch=3 (bucket 4) give row 0 the batch-1 codes', async () => {
    const engine = await Engine.open(good);
    try {
      for (const preset of ['eager', 'graph']) {
        const one = await synth(engine, preset);
        const three = await synth(engine, `${preset},batch=3`);
        const d = difference(one, three);
        expect(d.firstCodeStep, preset).toBe(0);
        // Same weights, other GEMM shapes and more masked keys: float32 reordering only (docs/forensics.md "Batch invariance": ~2e-6 on the demo).
        expect(d.logit, preset).toBeLessThan(1e-4);
        // The wrong-row gather from step 3 changes row 0 from step 3 on, not before.
        const gathered = await synth(engine, `${preset},batch=3,fault=batch-gather@3`);
        expect(difference(three, gathered).firstCodeStep, preset).toBe(3);
        expect(gathered.steps.slice(0, 2)).toEqual(three.steps.slice(0, 2).map((s, i) => ({ ...s, timesMs: gathered.steps[i].timesMs })));
      }
    } finally {
      await engine.close();
    }
  });

  it('a batch=N profile the bundle cannot run is refused in one line naming bundle.json and what is missing', async () => {
    const engine = await Engine.open(good);
    try {
      const refused = (profile: string) => synth(engine, profile).then(() => '', (e: unknown) => (e as Error).message.replace(`${join(good, 'bundle.json')}: `, 'bundle.json: '));
      expect(await refused('graph,batch=5')).toBe('bundle.json: profile "graph,batch=5" runs a batch of 5, but its graph-fp32 batch buckets are 2, 4 (bundle.json batch.graphBuckets); a graph run needs a bucket of at least 5 rows');
      expect(await refused('graph,batch=2,precision=fp16')).toBe('bundle.json: profile "graph,batch=2,precision=fp16" runs a batch of 2, but its bundle.json "batch" has no "graph-fp16@B" export (it has: eager-fp32, graph-fp32@2, graph-fp32@4)');
      expect(await refused('eager,batch=2,precision=fp16')).toMatch(/^bundle\.json: profile "eager,batch=2,precision=fp16" runs a batch of 2, but its bundle\.json "batch" has no "eager-fp16" export \(it has: eager-fp32, graph-fp32@2, graph-fp32@4\)$/);
    } finally {
      await engine.close();
    }
    const old = await edited((m) => delete m.batch);
    const engineOld = await Engine.open(old);
    try {
      await expect(synth(engineOld, 'eager,batch=2')).rejects.toThrow(
        `${join(old, 'bundle.json')}: profile "eager,batch=2" runs a batch of 2, but this bundle declares no batch support (bundle.json has no "batch" field; it runs batch 1 only; docs/bundle-format.md "Batch support")`,
      );
      expect((await synth(engineOld, 'eager')).frames).toBeGreaterThan(0); // the old bundle still runs batch 1
    } finally {
      await engineOld.close();
    }
  });

  it('the loader checks the rules across the batch fields', async () => {
    expect(await refusal(await edited((m) => void (m.batch!.graphBuckets = [4, 2])))).toBe('bundle.json: batch.graphBuckets must be strictly ascending: 4, 2');
    expect(await refusal(await edited((m) => void (m.batch!.graphBuckets = [2])))).toBe('bundle.json: batch.talker["graph-fp32@4"]: batch 4 is not in batch.graphBuckets (2)');
    expect(await refusal(await edited((m) => void (m.batch!.graphBuckets = [2, 4, 8])))).toBe('bundle.json: batch.talker has no "graph-fp32@8": batch.graphBuckets declares 2, 4, 8, and each needs its graph export');
    expect(await refusal(await edited((m) => void delete m.batch!.codePredictor['graph-fp32@4']))).toBe(
      'bundle.json: batch.talker and batch.codePredictor must have the same export keys (a batch runs both): talker has eager-fp32, graph-fp32@2, graph-fp32@4, codePredictor has eager-fp32, graph-fp32@2',
    );
    expect(await refusal(await edited((m) => void (m.batch!.talker['eager-fp32@2' as string] = m.batch!.talker['eager-fp32'])))).toBe(
      'bundle.json: batch.talker.eager-fp32@2: expected eager-<fp32|fp16> (dynamic batch) or graph-<fp32|fp16>@B (batch bucket B)',
    );
    // A batched eager export must keep its batch dimension symbolic: the engine feeds N rows there.
    const fixed = await refusal(await edited((m) => void (m.batch!.talker['eager-fp32'].inputs[0].shape[0] = 1)));
    expect(fixed).toMatch(/^bundle\.json: talker batch eager-fp32 \(talker\.eager\.fp32\.batch\.onnx\) input "inputs_embeds": expected float32 \[\?, \?, 32\] .* found float32 \[1, \?, 32\] in bundle\.json's own tensor list batch\.talker\["eager-fp32"\]\.inputs: dimension 0: expected symbolic \("batch_size"/);
  });
});
