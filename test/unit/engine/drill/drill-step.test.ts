import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { ComparisonReport } from '../../../../electron/common/report/comparison-report.js';
import { DrillReport } from '../../../../electron/common/report/drill.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { drillDivergence, drillStep } from '../../../../electron/engine/drill/drill-step.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

const TEXT = 'Drill into the step.'; // 20 chars -> 18 frames
const base = { text: TEXT, seed: 0, sampling: GREEDY };
let dir: string;
let engine: Engine;
let manifest: {
  embed: { codecRowOffset: number; codecRowsPerCodebook: number; export: { file: string } };
  codebooks: number;
  specialCodes: { bos: number };
  talker: { exports: Record<string, { file: string }> };
};

beforeAll(async () => {
  dir = await resolveDemoBundle();
  engine = await Engine.open(dir);
  manifest = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
});
afterAll(async () => engine?.close());

/** The export's nodes in file order, read with onnx-proto (not through the drill's own code). */
async function nodesOf(file: string) {
  const proto = onnxProto.onnx.ModelProto.decode(await readFile(join(dir, file)));
  return proto.graph!.node!.map((n) => ({ name: n.name!, inputs: [...n.input!], outputs: n.output!.filter(Boolean) }));
}

/** The first node (topological order) that reads `input`: where a NaN fed through that input first appears. */
async function firstConsumer(file: string, input: string): Promise<string> {
  return (await nodesOf(file)).find((n) => n.inputs.includes(input))!.name;
}

/** Round trip through JSON (NaN written as "NaN") and the schema. */
const validated = (r: DrillReport): DrillReport => DrillReport.parse(JSON.parse(stringifyReport(r)));

describe('drill-down (demo bundle)', () => {
  it('graph vs graph,fault=stale-feedback@2: names the talker audio-feedback input at step 2, with the difference the embedding table predicts', async () => {
    const { report, resultA } = await compareProfiles(engine, { ...base, profileA: 'graph', profileB: 'graph,fault=stale-feedback@2', bundle: 'demo' }, { createdAt: 'test' });
    expect(report.divergence).toMatchObject({ firstStep: 2, stage: 'talker-logits' });
    const drill = validated(await drillDivergence(engine, { ...base, profileA: 'graph', profileB: 'graph,fault=stale-feedback@2' }, report.divergence));
    expect(drill).toMatchObject({ status: 'found', step: 2, network: 'talker', divergenceStage: 'talker-logits' });
    expect(drill.input).toMatchObject({ kind: 'input', name: 'inputs_embeds', nanCount: 0, side: null });
    expect(drill.summary).toContain("input inputs_embeds (audio feedback: sum of the previous frame's code embeddings) differs at step 2 (talker)");
    expect(drill.summary).toContain('entered through the network input');

    // Expected |Δ|, independently: A feeds back frame 1's codes, B the BOS seed still in the buffer
    // (docs/faults.md); both sums over the Q rows of the embedding table, read here with ORT directly.
    const m = manifest;
    const rows = m.embed.codecRowOffset + m.codebooks * m.embed.codecRowsPerCodebook;
    const session = await ort.InferenceSession.create(join(dir, m.embed.export.file));
    const ids = new ort.Tensor('int64', BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)), [1, rows]);
    const table = (await session.run({ input_ids: ids })).inputs_embeds.data as Float32Array;
    await session.release();
    const hidden = table.length / rows;
    const feedback = (codes: number[]) => {
      const out = new Float64Array(hidden);
      codes.forEach((c, q) => {
        const row = m.embed.codecRowOffset + q * m.embed.codecRowsPerCodebook + c;
        for (let i = 0; i < hidden; i++) out[i] += table[row * hidden + i];
      });
      return out;
    };
    const fresh = feedback(Array.from(resultA.codes.subarray(0, m.codebooks)));
    const stale = feedback(Array.from({ length: m.codebooks }, () => m.specialCodes.bos));
    const expected = fresh.reduce((worst, x, i) => Math.max(worst, Math.abs(x - stale[i])), 0);
    // float32 sums of 8 rows in the engine vs float64 here: within 1e-5
    expect(Math.abs(Number(drill.input!.maxAbsDiff) - expected)).toBeLessThan(1e-5);
    expect(drill.input!.differing).toBe(hidden);

    // The first node after the input is the first one in the graph that reads it, in layer 0.
    const file = m.talker.exports['graph-fp32'].file;
    expect(drill.node).toMatchObject({ kind: 'node', name: await firstConsumer(file, 'inputs_embeds'), layer: 0 });
    expect(drill.a).toMatchObject({ file, optimize: true, runs: 1 });
    // The drill re-run reproduces the recorded run (only ORT fusions blocked by the promoted outputs move it)
    expect(Number(drill.replayMaxAbsDiff!.a)).toBeLessThan(1e-4);

    const withDrill = ComparisonReport.parse(JSON.parse(stringifyReport({ ...report, drill })));
    expect(withDrill.drill?.input?.name).toBe('inputs_embeds');
  });

  for (const [preset, n] of [['graph', 1], ['graph', 3], ['eager', 6]] as const) {
    it(`${preset} vs ${preset},fault=nan@talker:${n}: names the input the NaN enters through and the node where it first appears`, async () => {
      const profileB = `${preset},fault=nan@talker:${n}`;
      const drill = validated(await drillStep(engine, { ...base, profileA: preset, profileB, step: n, stage: 'talker-logits' }));
      expect(drill).toMatchObject({ status: 'found', step: n, network: 'talker' });
      // synthesize.ts puts exactly one NaN into the step's input embedding (element 0)
      expect(drill.input).toMatchObject({ name: 'inputs_embeds', nanCount: 1, side: 'B', a: { nan: 0 }, b: { nan: 1 } });
      expect(drill.input!.role).toBe(n === 1 ? 'text token embeddings (prefill)' : "audio feedback: sum of the previous frame's code embeddings");
      const file = manifest.talker.exports[`${preset}-fp32`].file;
      const node = await firstConsumer(file, 'inputs_embeds');
      expect(drill.node).toMatchObject({ name: node, side: 'B', a: { nan: 0 }, layer: 0 });
      expect(drill.node!.b.nan).toBeGreaterThan(0);
      expect(drill.summary).toContain(`the NaN first appears at node ${node}`);
      if (preset === 'graph' && n === 1) expect(drill.run).toMatchObject({ index: 0, what: 'talker, position 0' }); // one run per prefill token
    });
  }

  it('eager vs eager,fault=nan@code-predictor:5: the NaN enters through the code predictor prefill input', async () => {
    const drill = validated(await drillStep(engine, { ...base, profileA: 'eager', profileB: 'eager,fault=nan@code-predictor:5', step: 5, stage: 'code-predictor' }));
    expect(drill).toMatchObject({ status: 'found', network: 'code-predictor', run: { index: 0, what: 'code predictor, positions 0..1, head for codebook 1' } });
    expect(drill.input).toMatchObject({ name: 'inputs_embeds', role: "talker's last hidden state + embedding of code 0", nanCount: 1, side: 'B' });
    expect(drill.node?.side).toBe('B');
  });

  it('graph,vocoder=stream vs …,fault=nan@vocoder:12: the chunk holding frame 12, its noise input with one frame of NaN', async () => {
    const profileA = 'graph,vocoder=stream';
    const drill = validated(await drillStep(engine, { ...base, profileA, profileB: `${profileA},fault=nan@vocoder:12`, step: 12, stage: 'vocoder' }));
    // chunkFrames 5: frame 12 is in chunk [10, 15), decoded with min(leftContextFrames 8, 10) = 8 frames of left context
    expect(drill.run?.what).toBe('vocoder over 13 frames (8 left context)');
    // the fault fills frame 12's noise with NaN: hopLength = 24000 / 12.5 = 1920 samples
    expect(drill.input).toMatchObject({ name: 'noise', nanCount: 1920, side: 'B' });
    expect(drill.node?.b.nan).toBeGreaterThan(0);
  });

  it('graph vs graph (identical) at step 2: nothing differs, every input and node output compared', async () => {
    const drill = validated(await drillStep(engine, { ...base, profileA: 'graph', profileB: 'graph', step: 2, stage: 'talker-logits' }));
    expect(drill).toMatchObject({ status: 'nothing-differs', input: null, node: null, skipped: 0, unmatched: 0 });
    const proto = onnxProto.onnx.ModelProto.decode(await readFile(join(dir, manifest.talker.exports['graph-fp32'].file)));
    const inits = new Set(proto.graph!.initializer!.map((t) => t.name));
    const inputs = proto.graph!.input!.filter((v) => !inits.has(v.name)).length;
    const outputs = new Set(proto.graph!.node!.flatMap((n) => n.output!.filter(Boolean))).size;
    expect(drill.compared).toBe(inputs + outputs);
    expect(drill.summary).toContain('nothing differs');
  });

  it('eager vs graph,fault=stale-feedback@2: the input, then its first consumer, a node named alike in both exports', async () => {
    const drill = validated(await drillStep(engine, { ...base, profileA: 'eager', profileB: 'graph,fault=stale-feedback@2', step: 2, stage: 'talker-logits' }));
    expect(drill.input).toMatchObject({ name: 'inputs_embeds', nanCount: 0 });
    const consumer = await firstConsumer(manifest.talker.exports['eager-fp32'].file, 'inputs_embeds');
    expect(await firstConsumer(manifest.talker.exports['graph-fp32'].file, 'inputs_embeds')).toBe(consumer); // x·x vs x^2: same name
    expect(drill.node).toMatchObject({ name: consumer, opType: 'Mul', layer: 0 });
  });

  it('eager vs graph (identical codes) at step 2: every tensor named alike in both is compared; only cache-length tensors are skipped', async () => {
    const drill = validated(await drillStep(engine, { ...base, profileA: 'eager', profileB: 'graph', step: 2, stage: 'talker-logits' }));
    expect(drill).toMatchObject({ status: 'nothing-differs', input: null, node: null });
    const eager = await nodesOf(manifest.talker.exports['eager-fp32'].file);
    const graphOutputs = new Set((await nodesOf(manifest.talker.exports['graph-fp32'].file)).flatMap((n) => n.outputs));
    const outputs = eager.flatMap((n) => n.outputs);
    const shared = outputs.filter((o) => !o.startsWith('eager.') && graphOutputs.has(o)).length;
    const layers = (manifest as unknown as { talker: { layers: number } }).talker.layers;
    const inputs = 3 + 2 * layers; // inputs_embeds, attention_mask, position_ids, past key/value per layer
    // A decode step has S = 1 on both sides; what spans the cache (T) in eager spans the buffer (M) in graph:
    // attention_mask and past_key_values.* (inputs), present.* (outputs).
    expect(drill.skipped).toBe(1 + 2 * layers + 2 * layers);
    expect(drill.compared).toBe(inputs - (1 + 2 * layers) + shared - 2 * layers);
    expect(drill.unmatched).toBe(outputs.length - shared);
    expect(drill.compared).toBeGreaterThan(100);
  });

  it('no divergent step: says so without running anything', async () => {
    const drill = validated(await drillDivergence(engine, { ...base, profileA: 'graph', profileB: 'graph' }, { firstStep: null, stage: null }));
    expect(drill).toMatchObject({ status: 'no-divergence', step: null, network: null, compared: 0 });
    expect(drill.summary).toContain('nothing differs');
  });

  it('the recording touches nothing: a synthesis with a recorder gives the same steps and audio as one without', async () => {
    const req = { ...base, profile: parseProfile('graph') };
    const plain = await engine.synthesize(req);
    let runs = 0;
    const recorded = await engine.synthesize(req, { recordFeeds: { step: 3, stage: 'talker', onRun: () => runs++ } });
    expect(runs).toBe(1);
    expect(Array.from(recorded.audio)).toEqual(Array.from(plain.audio));
    expect(recorded.steps.map((s) => s.logits)).toEqual(plain.steps.map((s) => s.logits));
  });
});
