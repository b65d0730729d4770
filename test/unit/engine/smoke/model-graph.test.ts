import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../../../../electron/engine/onnx-builder/graph-builder.js';
import { readModelGraph } from '../../../../electron/engine/smoke/model-graph.js';

/** x [1, n] → y = x + x, declared [1, "n"]; `mask` and `ids` are graph inputs: mask read by nothing, ids passed straight out. */
function model(): Uint8Array {
  const g = new GraphBuilder('toy');
  const x = g.input('x', 'float32', [1, 'n']);
  g.input('mask', 'int64', [1, 'n']);
  const ids = g.input('ids', 'int64', [1]);
  g.output(g.node('Add', [x, x], { name: 'sum' }), 'y', 'float32', [1, 'n']);
  g.output(ids, 'ids_out', 'int64', [1]);
  return g.toBytes();
}

describe('readModelGraph', () => {
  const graph = readModelGraph(model());

  it('lists the declared inputs no node reads', () => {
    expect(graph.unread(['x', 'mask', 'ids'])).toEqual(['mask']);
  });

  it('an input the model lacks altogether is not its business (the loader names it)', () => {
    expect(graph.unread(['position_ids'])).toEqual([]);
  });

  it('gives the output shapes as the file declares them, symbols included', () => {
    expect(graph.outputShape('y')).toEqual([1, 'n']);
    expect(graph.outputShape('ids_out')).toEqual([1]);
    expect(graph.outputShape('nothing')).toBeUndefined();
  });
});
