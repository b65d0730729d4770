import { describe, expect, it } from 'vitest';
import { numericsTotals } from '../../../../electron/common/trace/numerics-totals.js';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';

const stats = { mean: 0, std: 0, min: 0, max: 0, argmax: 0, top5: [] };

describe('numericsTotals', () => {
  it('sums NaN and Inf counts per stage; steps without counts add nothing', () => {
    const steps: StepRecord[] = [
      {
        step: 1,
        logits: stats,
        codes: [1],
        nan: { talker: 1, codePredictor: 0, vocoder: 2 },
        inf: { talker: 0, codePredictor: 3, vocoder: 0 },
      },
      { step: 2, logits: stats, codes: [1] },
      {
        step: 3,
        logits: stats,
        codes: [1],
        nan: { talker: 4, codePredictor: 5, vocoder: 0 },
        inf: { talker: 0, codePredictor: 0, vocoder: 6 },
      },
    ];
    expect(numericsTotals(steps)).toEqual({
      nan: { talker: 5, codePredictor: 5, vocoder: 2 },
      inf: { talker: 0, codePredictor: 3, vocoder: 6 },
    });
  });
});
