import { describe, expect, it } from 'vitest';
import type { DrawContext } from '../../../../electron/common/draw/draw-context.js';
import { drawScatterDots, scatterDotAt, scatterPlot, scatterSvg } from '../../../../electron/common/draw/sweep-scatter.js';
import type { SummaryCase } from '../../../../electron/common/sweep/sweep-summary.js';

function sweepCase(index: number, verdict: SummaryCase['verdict'], correlation: number, loudnessDeltaLU: number): SummaryCase {
  return { index, id: `p${index}`, seed: 0, text: 'hi', verdict, firstStep: null, stage: null, codebook: null, reconverges: null, flip: null, correlation, nullDepthDb: null, loudnessDeltaLU, lsdDb: null, mcdDb: null };
}

// Three identical cases on one spot, a diverged one there too, and one far away.
const cases = [sweepCase(0, 'identical', 1, 0), sweepCase(1, 'identical', 1, 0), sweepCase(2, 'identical', 1, 0), sweepCase(3, 'diverged', 1, 0), sweepCase(4, 'diverged', 0.2, -3)];

describe('sweep scatter: one geometry for sweep.html and the studio canvas', () => {
  it('shares a dot per verdict and pixel, draws diverged on top, and hit-tests the top dot within its radius', () => {
    const p = scatterPlot(cases, 500, 260);
    expect(p.dots.map((d) => [d.c.id, d.count])).toEqual([['p0', 3], ['p3', 1], ['p4', 1]]);
    const [, top, far] = p.dots;
    expect(scatterDotAt(p, top.x + 1, top.y - 1)?.c.id).toBe('p3');
    expect(scatterDotAt(p, far.x, far.y)?.c.id).toBe('p4');
    expect(scatterDotAt(p, far.x + far.r + 3, far.y)).toBeUndefined();
  });

  it('draws on a canvas the dots the SVG has as circles, at the same places', () => {
    const arcs: number[][] = [];
    const ctx = { save() {}, restore() {}, beginPath() {}, fill() {}, arc: (x: number, y: number, r: number) => arcs.push([x, y, r]) } as unknown as DrawContext;
    const p = scatterPlot(cases, 500, 260);
    drawScatterDots(ctx, p);
    const circles = [...scatterSvg(cases, 500, 260).matchAll(/<circle cx="([^"]+)" cy="([^"]+)" r="([^"]+)"/g)].map((m) => m.slice(1).map(Number));
    expect(arcs).toEqual(circles);
    expect(arcs).toHaveLength(3);
  });
});
