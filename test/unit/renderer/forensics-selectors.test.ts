import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { forensicsSelectors } from '../../../renderer/src/store/comparison/forensics-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const drift = {
  curve: [0, 0.0625],
  peak: { step: 2, value: 0.0625 },
  trend: { slopePerStep: 0.0625, firstQuarterMean: 0, lastQuarterMean: 0.0625, direction: 'growing' },
  wouldFlip: [],
  counts: { nearTie: 0, real: 0, unknown: 0 },
  threshold: 0.1,
  numericallyEquivalent: true,
};

describe('forensics selectors (no React)', () => {
  it('nothing on screen, or a report without them: no sections', () => {
    const store = createStudioStore({} as StudioApi);
    expect(forensicsSelectors.sections(store.getState())).toEqual([]);
    store.setState({ comparison: { historyId: 'h', report: { verdict: 'identical' } } as never });
    expect(forensicsSelectors.sections(store.getState())).toEqual([]);
  });

  it('a teacher-forced report gives its lines, the same object while the report is the same', () => {
    const store = createStudioStore({} as StudioApi);
    store.setState({ comparison: { historyId: 'h', report: { verdict: 'diverged', teacherForced: drift } } as never });
    const sections = forensicsSelectors.sections(store.getState());
    expect(sections.map((s) => s.key)).toEqual(['teacher-forcing']);
    expect(sections[0].lines[3]).toBe("Would-flip steps: none: B's own pick equals A's code at every step and codebook");
    expect(forensicsSelectors.sections(store.getState())).toBe(sections);
    expect(forensicsSelectors.teacherForced(store.getState())).toBe(drift);
  });

  it('the drift view marks a step neither side recorded as unmeasured, not as 0', () => {
    const store = createStudioStore({} as StudioApi);
    const gapped = { ...drift, curve: [null, 0.0625], measuredSteps: 1, trend: { slopePerStep: 0, firstQuarterMean: 0.0625, lastQuarterMean: 0.0625, direction: 'flat' } };
    store.setState({ comparison: { historyId: 'h', report: { verdict: 'diverged', teacherForced: gapped } } as never });
    expect(forensicsSelectors.sections(store.getState())[0].lines[2]).toBe('  ·█  (steps 1–2; 1 measured, · = no logits recorded on both sides, scaled to the peak)');
  });
});
