import { describe, expect, it } from 'vitest';
import type { DrillGraphNode, DrillNeighbourhood } from '../../../electron/common/report/drill.js';
import { BOX, deltaWords, layoutNeighbourhood } from '../../../renderer/src/lib/drill-layout.js';

const stats = { shape: [1, 4], min: 0, max: 1, mean: 0.5, nan: 0, inf: 0 };
const node = (id: string, maxAbsDiff: number | null, extra: Partial<DrillGraphNode> = {}): DrillGraphNode => ({
  id,
  kind: id.startsWith('input:') ? 'input' : 'node',
  name: id.split(':')[1],
  tensor: id.split(':')[1],
  comparison: maxAbsDiff === null ? null : { maxAbsDiff, differing: maxAbsDiff > 1e-4 ? 4 : 0, nanCount: 0, side: null, a: stats, b: stats },
  first: false,
  onPath: true,
  ...extra,
});

// A path input → n1 → first, and a second input of `first` produced by `side` (not on the path).
const n: DrillNeighbourhood = {
  nodes: [node('node:first', 0.5, { first: true }), node('node:side', null, { onPath: false }), node('node:n1', 0), node('input:x', 0)],
  edges: [
    { from: 'node:side', to: 'node:first', tensor: 'side', maxAbsDiff: null, nanCount: 0 },
    { from: 'node:n1', to: 'node:first', tensor: 'n1', maxAbsDiff: 0, nanCount: 0 },
    { from: 'input:x', to: 'node:n1', tensor: 'x', maxAbsDiff: 0, nanCount: 0 },
  ],
  path: ['input:x', 'node:n1', 'node:first'],
  truncated: false,
};

describe('drill neighbourhood layout', () => {
  const layout = layoutNeighbourhood(n);
  const at = (id: string) => layout.nodes.find((p) => p.node.id === id)!;

  it('puts the path in one column, top to bottom, and the other input left of the first node, on its row', () => {
    expect(layout.order).toEqual(['input:x', 'node:n1', 'node:first', 'node:side']);
    const [x, n1, first, side] = layout.order.map(at);
    expect(new Set([x.x, n1.x, first.x]).size).toBe(1);
    expect(x.y).toBeLessThan(n1.y);
    expect(n1.y).toBeLessThan(first.y);
    expect(side.y).toBe(first.y);
    expect(side.x + BOX.width).toBeLessThan(first.x);
    expect(layout.width).toBe(first.x + BOX.width + BOX.margin);
    expect(layout.height).toBe(first.y + BOX.height + BOX.margin);
  });

  it('runs each edge from the producer box to the reader box, coloured by |Δ| (none when not compared)', () => {
    const down = layout.edges.find((e) => e.from === 'input:x')!;
    const [x, n1] = [at('input:x'), at('node:n1')];
    expect(down.d).toBe(`M ${x.x + BOX.width / 2} ${x.y + BOX.height} L ${n1.x + BOX.width / 2} ${n1.y}`);
    expect(down.heat).toBe(0);
    const across = layout.edges.find((e) => e.from === 'node:side')!;
    expect(across.d.startsWith(`M ${at('node:side').x + BOX.width} `)).toBe(true);
    expect(across.heat).toBeUndefined();
    expect(across.label).toBe('not compared');
    // 0.5 on the log ramp 1e-7 … 10: (log10(0.5) + 7) / 8.
    expect(at('node:first').heat).toBeCloseTo((Math.log10(0.5) + 7) / 8, 12);
  });

  it('says |Δ| in words', () => {
    expect(deltaWords({ maxAbsDiff: 0, nanCount: 0 })).toBe('max |Δ| 0');
    expect(deltaWords({ maxAbsDiff: 3.14159e-5, nanCount: 0 })).toBe('max |Δ| 3.1e-5');
    expect(deltaWords({ maxAbsDiff: 'Infinity', nanCount: 0 })).toBe('max |Δ| ∞');
    expect(deltaWords({ maxAbsDiff: 'NaN', nanCount: 2 })).toBe('2 NaN');
    expect(deltaWords({ maxAbsDiff: null, nanCount: 0 })).toBe('not compared');
    // ±Inf on both sides everywhere: no |Δ| was measured (float-diff.ts gives NaN and the pair counts).
    expect(deltaWords({ maxAbsDiff: 'NaN', nanCount: 0, pairs: { finite: 0, nonFinite: 3 } })).toBe('no finite values compared (all 3 non-finite)');
  });

  it('draws a tensor with nothing finite compared grey (unmeasured), not green', () => {
    const unmeasured = { ...n, nodes: n.nodes.map((x) => (x.id === 'input:x' ? { ...x, comparison: { ...x.comparison!, maxAbsDiff: NaN, pairs: { finite: 0, nonFinite: 4 } } } : x)) };
    unmeasured.edges = n.edges.map((e) => (e.from === 'input:x' ? { ...e, maxAbsDiff: NaN, pairs: { finite: 0, nonFinite: 4 } } : e));
    const l = layoutNeighbourhood(unmeasured);
    expect(l.nodes.find((p) => p.node.id === 'input:x')!.heat).toBeUndefined();
    const edge = l.edges.find((e) => e.from === 'input:x')!;
    expect(edge.heat).toBeUndefined();
    expect(edge.label).toBe('no finite values compared (all 4 non-finite)');
  });
});
