import { describe, expect, it } from 'vitest';
import { codePredictorText, stageRows, stepDeltas, verdictCodebook, vocoderAbsentWords } from '../../../../electron/common/draw/step-delta.js';
import { divergenceLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { reportPageData } from '../../../../electron/common/report/html/report-page-data.js';
import type { TraceStep } from '../../../../electron/common/trace/step-record.js';
import { stageWords } from '../../../../renderer/src/lib/hover-readout.js';

// Issue 40: the per-step views plot the code predictor's worst codebook; where the verdict names another (the
// first past the tolerance), that one is said beside it, and a step comparison without audio keeps its vocoder
// row with the reason. The pair is hand-made: at step 1 codebook 2's mean is 0.002 apart (first past 1e-3),
// codebook 8's 0.5 apart (the worst); later steps equal.
const stats = (mean: number) => ({ mean, std: 1, min: -4, max: 6, argmax: 3, top5: [{ id: 3, logit: 6 }] });
const step = (n: number, apart: boolean): TraceStep => ({
  step: n,
  logits: stats(0.25),
  codes: Array.from({ length: 16 }, (_, k) => k),
  codePredictorLogits: Array.from({ length: 15 }, (_, k) => stats(0.1 * k + (apart && n === 1 ? (k === 1 ? 0.002 : k === 7 ? 0.5 : 0) : 0))),
});
const a = [1, 2, 3].map((n) => step(n, false));
const b = [1, 2, 3].map((n) => step(n, true));
const d = localise(a, b, { frameRate: 12.5 });

describe("the verdict's codebook beside the worst, and the vocoder row without audio", () => {
  it('the verdict names codebook 2, the views plot codebook 8, and every text says both', () => {
    expect([d.firstStep, d.stage, d.codebook]).toEqual([1, 'code-predictor', 2]);
    const deltas = stepDeltas(d);
    expect(deltas[0].codePredictor?.codebook).toBe(8);
    const verdict = verdictCodebook(d);
    expect(verdict).toEqual({ step: 1, codebook: 2 });
    // |Δ| of the statistics: 0.5 and 0.002 (the means; the rest is equal), as the trace was written.
    expect(codePredictorText(deltas[0], verdict)).toBe("0.5000 (worst: codebook 8; the verdict's codebook 2: 0.002000)");
    expect(codePredictorText(deltas[0])).toBe('0.5000 (codebook 8)');
    expect(stageWords(deltas[0], verdict)).toContain("code predictor |Δ| 0.5000 (worst: codebook 8; the verdict's codebook 2: 0.002000)");
    expect(codePredictorText(deltas[1], verdict)).toBe('0 (equal)');
    const words = divergenceLines('diverged', d).join('\n');
    expect(words).toContain("The largest code-predictor |Δ| at step 1 is codebook 8's (0.5), not codebook 2's (2.0e-3): the per-step figures plot the worst codebook");
  });

  it('a step comparison keeps its vocoder row: without audio it says why, with both takes it is measured', () => {
    const deltas = stepDeltas(d);
    expect(vocoderAbsentWords(false, false)).toBe('no audio in this pair');
    expect(vocoderAbsentWords(true, false)).toBe("only A's audio in this pair");
    expect(vocoderAbsentWords(true, true)).toBeUndefined();
    const rows = stageRows(deltas, d.tolerances, vocoderAbsentWords(false, false));
    expect(rows.map((r) => [r.stage, r.absent])).toEqual([['talker', undefined], ['code-predictor', undefined], ['vocoder', 'no audio in this pair']]);
    // A WAV pair has no step rows: nothing to add a vocoder row to.
    expect(stageRows([], d.tolerances, 'no audio in this pair')).toEqual([]);

    // report.html / steps.png: the same, from the report and (when the fixture has them) the takes.
    const report = { verdict: 'diverged', divergence: d };
    const none = reportPageData(report, '# r', 12.5);
    expect(none.vocoderAbsent).toBe('no audio in this pair');
    expect(none.steps.some((s) => s.vocoder)).toBe(false);
    expect(none.verdictCodebook).toEqual({ step: 1, codebook: 2 });
    const take = new Float32Array(5760).fill(0.1);
    const other = take.map((x, i) => (i >= 1920 ? x + 0.01 : x));
    const withAudio = reportPageData(report, '# r', 12.5, { a: take, b: other, sampleRate: 24000 });
    expect(withAudio.vocoderAbsent).toBeNull();
    expect(withAudio.steps.map((s) => s.vocoder?.delta)).toEqual([0, expect.closeTo(0.01, 6), expect.closeTo(0.01, 6)]);
  });
});
