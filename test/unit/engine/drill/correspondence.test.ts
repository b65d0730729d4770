import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../../../../electron/engine/onnx-builder/graph-builder.js';
import { ExportGraphBuilder } from '../../../../electron/engine/demo/export-names.js';
import { correspondingOutputs } from '../../../../electron/engine/drill/correspondence.js';
import { promoteAllOutputs } from '../../../../electron/engine/drill/promote-outputs.js';
import { resolveDemoBundle } from '../../../../electron/engine/engine.js';

/** x [1, 4] -> y: either Mul(x, x) then Add(·, x), or Pow(x, 2) then Add(·, x): the counter names collide. */
function model(first: 'square' | 'pow'): Uint8Array {
  const g = new GraphBuilder(`toy-${first}`);
  const x = g.input('x', 'float32', [1, 4]);
  const two = g.init('two', { dtype: 'float32', dims: [], data: [2] });
  const sq = first === 'square' ? g.node('Mul', [x, x], { name: 'sq' }) : g.node('Pow', [x, two], { name: 'sq' });
  const m = g.node('Mul', [sq, x], { name: 'cube' });
  const r = g.node('Add', [m, x], { name: 'out' });
  g.output(r, 'y', 'float32', [1, 4]);
  return g.toBytes();
}

describe('correspondingOutputs', () => {
  it('one model against itself: every node output corresponds', () => {
    const a = promoteAllOutputs(model('square'), 'a.onnx');
    expect([...correspondingOutputs(a, a)].sort()).toEqual(['cube', 'out', 'sq', 'y']);
  });

  it('a node named alike but built differently (Mul vs Pow) does not correspond, nor anything downstream of it', () => {
    const a = promoteAllOutputs(model('square'), 'a.onnx');
    const b = promoteAllOutputs(model('pow'), 'b.onnx');
    expect(correspondingOutputs(a, b).size).toBe(0);
  });
});

/** The toy above under the shared naming scheme: `sq` shared, the Mul after it auto-named (private). */
function exportModel(kind: 'eager' | 'graph'): Uint8Array {
  const g = new ExportGraphBuilder(`toy-${kind}`, kind);
  const x = g.input('x', 'float32', [1, 4]);
  const two = g.init('two', { dtype: 'float32', dims: [], data: [2] });
  const sq = kind === 'eager' ? g.node('Mul', [x, x], { name: g.shared('sq') }) : g.node('Pow', [x, two], { name: g.shared('sq') });
  const m = g.node('Mul', [sq, x]);
  g.output(g.node('Add', [m, x], { name: g.shared('out') }), 'y', 'float32', [1, 4]);
  return g.toBytes();
}

describe('correspondingOutputs under the shared naming scheme', () => {
  it('shared names correspond whatever op computes them; auto-names carry the export kind and never clash', () => {
    const a = promoteAllOutputs(exportModel('eager'), 'a.onnx');
    const b = promoteAllOutputs(exportModel('graph'), 'b.onnx');
    expect(a.nodes.map((n) => n.name)).toEqual(['sq', 'eager.mul', 'out', 'y']);
    expect(b.nodes.map((n) => n.name)).toEqual(['sq', 'graph.mul', 'out', 'y']);
    expect([...correspondingOutputs(a, b)].sort()).toEqual(['out', 'sq', 'y']);
  });

  it('only when both models declare the scheme: against a plain model of the same names, Mul vs Pow still does not correspond', () => {
    const a = promoteAllOutputs(exportModel('eager'), 'a.onnx');
    const plain = promoteAllOutputs(model('pow'), 'b.onnx');
    expect(correspondingOutputs(a, plain).size).toBe(0);
  });
});

describe('correspondingOutputs on the demo exports', () => {
  it('graph fp32 vs graph fp16 talker: every node output of the fp32 export has its counterpart (casts seen through, constants by value)', async () => {
    const dir = await resolveDemoBundle();
    const m = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
    const load = async (key: string) => promoteAllOutputs(await readFile(join(dir, m.talker.exports[key].file)), key);
    const fp32 = await load('graph-fp32');
    const fp16 = await load('graph-fp16');
    const all = new Set(fp32.nodes.flatMap((n) => n.outputs.filter(Boolean)));
    expect(correspondingOutputs(fp32, fp16)).toEqual(all);
  });

  it('eager vs graph talker: every shared quantity of every layer corresponds, nothing private does', async () => {
    const dir = await resolveDemoBundle();
    const m = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
    const load = async (key: string) => promoteAllOutputs(await readFile(join(dir, m.talker.exports[key].file)), key);
    const matched = correspondingOutputs(await load('eager-fp32'), await load('graph-fp32'));
    const norm = (s: string) => ['square', 'mean_square', 'variance', 'rms', 'normed', 'out'].map((x) => `${s}.${x}`);
    const layer = (i: number) => [
      ...norm(`layers.${i}.input_layernorm`),
      ...['q_rope', 'k_rope', 'v', 'context', 'o_proj.out'].map((x) => `layers.${i}.attn.${x}`),
      `layers.${i}.residual_1`,
      ...norm(`layers.${i}.post_attention_layernorm`),
      ...['gate', 'up', 'sigmoid', 'silu', 'act', 'down.out'].map((x) => `layers.${i}.mlp.${x}`),
      `layers.${i}.residual_2`,
    ];
    const expected = [...['freqs', 'cos', 'sin'].map((x) => `rope.${x}`), ...Array.from({ length: m.talker.layers }, (_, i) => layer(i)).flat(), ...norm('norm'), 'logits', 'last_hidden_state'];
    expect(expected.filter((n) => !matched.has(n))).toEqual([]);
    expect([...matched].filter((n) => n.startsWith('eager.') || n.startsWith('graph.'))).toEqual([]);
    // attention over the cache's T positions vs the whole buffer: named apart, never compared
    expect([...matched].filter((n) => /scores|masked|probs/.test(n))).toEqual([]);
  });
});
