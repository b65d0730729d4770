import { describe, expect, it } from 'vitest';
import { bandLabels } from '../../../../electron/common/draw/band-labels.js';

describe('band labels of non-finite steps (step trace)', () => {
  const width = (t: string) => 6 * t.length;

  it('labels a run of steps with the same text once, at its centre', () => {
    const steps = [4, 5, 6, 7].map((step) => ({ step, text: 'B NaN' }));
    const labels = bandLabels(steps, (s) => s * 10, width);
    expect(labels.map((l) => l.text)).toEqual(['B NaN, steps 4–7']);
    expect(labels[0].x).toBe(55);
  });

  it('never lets two labels overlap: a label too close to the previous one is left out', () => {
    // Alternating texts defeat the runs: every step would be its own label 8 px apart.
    const steps = Array.from({ length: 30 }, (_, i) => ({ step: i + 1, text: i % 2 ? 'A NaN' : 'B Inf' }));
    const labels = bandLabels(steps, (s) => s * 8, width, 6);
    expect(labels.length).toBeGreaterThan(1);
    for (let i = 1; i < labels.length; i++) expect(labels[i].left).toBeGreaterThanOrEqual(labels[i - 1].right + 6);
  });
});
