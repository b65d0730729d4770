import { describe, expect, it } from 'vitest';
import { diffFloats } from '../../../../electron/common/forensics/float-diff.js';
import { drillLines, findingHowText } from '../../../../electron/common/report/drill-lines.js';
import type { DrillGraphNode, DrillReport } from '../../../../electron/common/report/drill.js';

const tol = { abs: 1e-4, rel: 0 };
/** A neighbourhood node whose comparison is diffFloats' own result over the given values. */
const node = (id: string, a: number[], b: number[], extra: Partial<DrillGraphNode> = {}): DrillGraphNode => ({
  id,
  kind: id.startsWith('input:') ? 'input' : 'node',
  name: id.split(':')[1],
  tensor: id.split(':')[1],
  comparison: diffFloats([a.length], a, b, tol),
  first: false,
  onPath: true,
  ...extra,
});

function report(nodes: DrillGraphNode[]): DrillReport {
  const first = nodes.find((x) => x.first)!;
  return {
    status: 'found',
    step: 3,
    divergenceStage: 'talker-logits',
    network: 'talker',
    tolerance: tol,
    input: null,
    node: { kind: 'node', name: first.name, ...first.comparison! },
    compared: nodes.length,
    skipped: 0,
    unmatched: 0,
    neighbourhood: { nodes, edges: [], path: nodes.map((x) => x.id), truncated: false },
    summary: 'step 3 (talker): …',
  };
}

describe('drill-down lines: a tensor with nothing finite on either side', () => {
  it('a mask that is -Inf on both sides reads "no finite values compared", not a |Δ| of 0', () => {
    const lines = drillLines(report([node('input:mask', [-Infinity, -Infinity], [-Infinity, -Infinity]), node('node:first', [1, 2], [1, 2.5], { first: true })]));
    const path = lines.find((l) => l.includes('path from the network input'))!;
    expect(path).toContain('input mask (no finite values compared (all 2 non-finite)) → first (0.5)');
  });

  it('a finding whose every pair holds an infinity says so and counts what differs, instead of an empty |Δ|', () => {
    const d = diffFloats([2], [Infinity, Infinity], [1, 2], tol);
    expect(findingHowText(d)).toBe('no finite values compared (all 2 non-finite), 2 element(s) differ');
    expect(findingHowText(diffFloats([2], [1, 2], [1, 2.5], tol))).toBe('max |Δ| 0.5 over 1 element(s)');
  });
});
