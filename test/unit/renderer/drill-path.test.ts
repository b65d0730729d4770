import { describe, expect, it } from 'vitest';
import type { DrillFinding, DrillReport } from '../../../electron/common/report/drill.js';
import { drillPath, drillWhere, heatOf } from '../../../renderer/src/lib/drill-path.js';

const tensor = { shape: [1, 8], min: -1, max: 1, mean: 0, nan: 0, inf: 0 };
const finding = (over: Partial<DrillFinding>): DrillFinding => ({ kind: 'node', name: 'n', maxAbsDiff: 0.5, differing: 3, nanCount: 0, side: null, a: tensor, b: tensor, ...over });
const report = (over: Partial<DrillReport>): DrillReport => ({
  status: 'found',
  step: 8,
  divergenceStage: 'talker-logits',
  network: 'talker',
  tolerance: { abs: 1e-5, rel: 0 },
  input: null,
  node: null,
  compared: 10,
  skipped: 0,
  unmatched: 0,
  summary: '',
  ...over,
});

describe('drill-down path', () => {
  it('goes from the input the difference entered through to the first differing node, each with its |Δ| and both sides', () => {
    const r = report({
        input: finding({ kind: 'input', name: 'inputs_embeds', role: 'audio feedback', maxAbsDiff: 0.25 }),
        node: finding({ name: 'layers.0.attn.q', opType: 'MatMul', layer: 0, maxAbsDiff: 1e-3 }),
    });
    const boxes = drillPath(r);
    expect(boxes.map((b) => [b.kind, b.title, b.detail])).toEqual([
      ['input', 'inputs_embeds', 'audio feedback'],
      ['node', 'layers.0.attn.q', 'MatMul · layer 0'],
    ]);
    expect(drillWhere(r)).toBe('talker network, step 8');
    expect(boxes[0].maxAbsDiff).toBe(0.25);
    expect(boxes[1].a).toEqual(tensor);
  });

  it('colours by log |Δ| from 1e-7 (0) to 10 (1); a NaN is the worst', () => {
    expect(heatOf(1e-8)).toBe(0);
    // log10(1e-3) = −3 → (−3 + 7) / 8 = 0.5.
    expect(heatOf(1e-3)).toBeCloseTo(0.5, 12);
    expect(heatOf(100)).toBe(1);
    expect(heatOf(NaN)).toBe(1);
    const nan = drillPath(report({ node: finding({ nanCount: 2, side: 'B', maxAbsDiff: NaN }) }));
    expect(nan[0]).toMatchObject({ heat: 1, nan: { count: 2, side: 'B' } });
  });
});
