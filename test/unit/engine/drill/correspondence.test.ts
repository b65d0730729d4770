import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../../../../electron/engine/onnx-builder/graph-builder.js';
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
});
