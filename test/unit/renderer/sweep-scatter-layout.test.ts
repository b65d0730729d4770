import { describe, expect, it } from 'vitest';
import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { scatterLayout } from '../../../renderer/src/lib/sweep-scatter-layout.js';

const c = (index: number, correlation: number | null, loudnessDeltaLU: number | null): SummaryCase => ({
  index, id: `p${index}`, seed: 0, verdict: 'diverged', firstStep: 2, stage: 'talker-logits', codebook: 0, reconverges: false, flip: 'real',
  correlation, nullDepthDb: null, loudnessDeltaLU, lsdDb: null, mcdDb: null,
});

describe('scatterLayout', () => {
  it('maps correlation from the lowest to 1 across the width and ΔLU symmetric around 0 down the height', () => {
    const layout = scatterLayout([c(0, 0.5, 2), c(1, 1, 0), c(2, 0.75, -1)], 100, 50);
    expect(layout.xMin).toBe(0.5);
    expect(layout.yMax).toBe(2);
    // (0.5, +2 LU) top left; (1, 0) right edge, middle; (0.75, −1) halfway across, three quarters down.
    expect(layout.points.map((p) => [p.key, p.x, p.y])).toEqual([
      ['p0@0', 0, 0],
      ['p1@0', 100, 25],
      ['p2@0', 50, 37.5],
    ]);
  });

  it('leaves out cases without both values and counts them; identical cases still get a visible range', () => {
    const layout = scatterLayout([c(0, 1, 0), c(1, null, null), c(2, Number.NaN, 1), c(3, 1, Number.NEGATIVE_INFINITY)], 100, 50);
    expect(layout.points.map((p) => p.key)).toEqual(['p0@0']);
    expect(layout.omitted).toBe(3);
    expect(layout.xMin).toBe(0.99);
    expect(layout.yMax).toBe(0.1);
    expect(layout.points[0]).toMatchObject({ x: 100, y: 25 });
  });
});
