import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';
import { recordVocoderCounts } from '../../../../electron/common/trace/vocoder-counts.js';

const stats = { mean: 0, std: 0, min: 0, max: 0, argmax: 0, top5: [] };
const zero = () => ({ talker: 0, codePredictor: 0, vocoder: 0 });

describe('recordVocoderCounts', () => {
  it("counts each frame's hop samples into its own step record; records without counts stay as they are", () => {
    // hop 3, three frames: frame 0 has 1 NaN and 1 -Inf, frame 1 none, frame 2 2 NaN and 1 +Inf.
    const audio = Float32Array.of(NaN, 0, -Infinity, 0.5, 0, 0, NaN, Infinity, NaN);
    const steps: StepRecord[] = [
      { step: 1, logits: stats, codes: [1], nan: zero(), inf: zero() },
      { step: 2, logits: stats, codes: [1] },
      { step: 3, logits: stats, codes: [1], nan: zero(), inf: zero() },
    ];
    recordVocoderCounts(audio, 3, 3, steps);
    expect(steps[0].nan?.vocoder).toBe(1);
    expect(steps[0].inf?.vocoder).toBe(1);
    expect(steps[1].nan).toBeUndefined();
    expect(steps[2].nan?.vocoder).toBe(2);
    expect(steps[2].inf?.vocoder).toBe(1);
    expect(steps[2].nan?.talker).toBe(0);
  });
});
