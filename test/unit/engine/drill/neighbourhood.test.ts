import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrillReport, type DrillNeighbourhood } from '../../../../electron/common/report/drill.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { drillStep } from '../../../../electron/engine/drill/drill-step.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

// The drill-down's neighbourhood of the first divergent node, from the real drill on the demo bundle
// (the comparisons docs/drill.md lists), checked against the ONNX graph read here with onnx-proto,
// not through the drill's own code: every node is in the model, every edge runs from the node that
// produces its tensor to a node that reads it, and the path joins a network input to the first node.

let dir: string;
let engine: Engine;
beforeAll(async () => {
  dir = await resolveDemoBundle();
  engine = await Engine.open(dir);
});
afterAll(async () => engine?.close());

const validated = (r: DrillReport): DrillReport => DrillReport.parse(JSON.parse(stringifyReport(r)));

async function graphOf(file: string) {
  const g = onnxProto.onnx.ModelProto.decode(await readFile(join(dir, file))).graph!;
  const nodes = new Map(g.node!.map((n) => [n.name!, { op: n.opType!, inputs: [...n.input!], outputs: [...n.output!] }]));
  const initializers = new Set(g.initializer!.map((t) => t.name!));
  const inputs = new Set(g.input!.map((v) => v.name!).filter((n) => !initializers.has(n)));
  return { nodes, inputs };
}

/** What must hold of any neighbourhood against its model: nodes exist, edges go producer → reader, the path is connected. */
async function checkAgainstModel(n: DrillNeighbourhood, file: string) {
  const model = await graphOf(file);
  const byId = new Map(n.nodes.map((x) => [x.id, x]));
  for (const x of n.nodes) {
    if (x.kind === 'input') expect(model.inputs.has(x.name), `${x.name} is a network input`).toBe(true);
    else {
      expect(model.nodes.get(x.name)?.op, `${x.name} is a node of ${file}`).toBe(x.opType);
      expect(model.nodes.get(x.name)!.outputs).toContain(x.tensor);
    }
  }
  for (const e of n.edges) {
    const from = byId.get(e.from)!;
    const to = byId.get(e.to)!;
    if (from.kind === 'input') expect(e.tensor).toBe(from.name);
    else expect(model.nodes.get(from.name)!.outputs, `${e.from} produces ${e.tensor}`).toContain(e.tensor);
    expect(to.kind).toBe('node');
    expect(model.nodes.get(to.name)!.inputs, `${e.to} reads ${e.tensor}`).toContain(e.tensor);
  }
  // The path: a network input first (not truncated), the first divergent node last, each step an edge.
  expect(n.truncated).toBe(false);
  expect(byId.get(n.path[0])!.kind).toBe('input');
  expect(byId.get(n.path.at(-1)!)!.first).toBe(true);
  for (let i = 1; i < n.path.length; i++) expect(n.edges.some((e) => e.from === n.path[i - 1] && e.to === n.path[i])).toBe(true);
  // Every direct data input of the first node is drawn, joined to it (weights and constants are not).
  const first = model.nodes.get(byId.get(n.path.at(-1)!)!.name)!;
  const producers = new Map([...model.nodes].flatMap(([name, node]) => node.outputs.map((o) => [o, name] as const)));
  for (const t of first.inputs.filter((t) => model.inputs.has(t) || producers.has(t))) {
    expect(n.edges.some((e) => e.tensor === t && e.to === n.path.at(-1)), `edge for ${t}`).toBe(true);
  }
}

describe('drill-down neighbourhood (demo bundle)', () => {
  it('graph vs graph,fault=nan@talker:4: the NaN input feeds the first divergent node directly', async () => {
    const drill = validated(await drillStep(engine, { text: 'Hello world', seed: 0, sampling: GREEDY, profileA: 'graph', profileB: 'graph,fault=nan@talker:4', step: 4, stage: 'talker-logits' }));
    const n = drill.neighbourhood!;
    expect(n.path).toEqual(['input:inputs_embeds', `node:${drill.node!.name}`]);
    await checkAgainstModel(n, drill.a!.file);
    const input = n.nodes.find((x) => x.id === 'input:inputs_embeds')!;
    expect(input.comparison).toMatchObject({ nanCount: 1, side: 'B' });
    expect(n.edges.find((e) => e.from === 'input:inputs_embeds')).toMatchObject({ nanCount: 1 });
  }, 60_000);

  it('fp16 vs its fp16-overflow export: the path from the input embeddings to layers.1.mlp.down.out, every node before it within tolerance', async () => {
    const drill = validated(
      await drillStep(engine, { text: 'Hello world', seed: 0, sampling: GREEDY, profileA: 'graph,precision=fp16', profileB: 'graph,precision=fp16,fault=fp16-overflow', step: 1, stage: 'talker-logits' }),
    );
    expect(drill.node?.name).toBe('layers.1.mlp.down.out');
    const n = drill.neighbourhood!;
    await checkAgainstModel(n, drill.a!.file);
    expect(n.path[0]).toBe('input:inputs_embeds');
    expect(n.path.length).toBeGreaterThan(5); // through layer 0 and into layer 1
    // The walk compares in topological order and stopped at the first node that differs: everything
    // upstream of it on the path that was compared matches within the drill's tolerance.
    const byId = new Map(n.nodes.map((x) => [x.id, x]));
    for (const id of n.path.slice(0, -1)) {
      const c = byId.get(id)!.comparison;
      if (c) expect(c.differing, id).toBe(0);
    }
    const first = byId.get(n.path.at(-1)!)!.comparison!;
    // fp16 overflow: every element of B's output is ±Inf where A's is finite, so no |Δ| is measured
    // (abs-diff.ts), yet every element differs.
    expect(Number(first.maxAbsDiff)).toBeNaN();
    expect(first.pairs).toEqual({ finite: 0, nonFinite: first.differing });
    expect(first.b.inf).toBe(first.differing);
  }, 90_000);
});
