import { describe, expect, it } from 'vitest';
import { Baseline, baselineLines, selfCheck, type Run } from '../../../../electron/common/forensics/baseline.js';
import { DEFAULT_TOLERANCES } from '../../../../electron/common/forensics/tolerances.js';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';
import { makeSteps } from './synthetic-trace.js';

const Q = 4;
const RATES = { sampleRate: 8, frameRate: 1 }; // 8 samples per frame: sample i belongs to frame floor(i/8)+1
const run = (steps: StepRecord[] = makeSteps(6, Q), audio = new Float32Array(48).fill(0.5)): Run => ({ steps, audio });

describe('selfCheck: one profile against its own second run (hand-built runs)', () => {
  it('a bit-identical repeat is deterministic', () => {
    const c = selfCheck('eager', run(), run(), DEFAULT_TOLERANCES, RATES);
    expect(c).toEqual({
      profile: 'eager', deterministic: true, differingSteps: [], firstStep: null, stage: null,
      // 6 steps × 9 talker statistics (mean, std, min, max, 5 top logits), 48 audio samples, all finite.
      largestLogitDiff: null, logitPairs: { finite: 54, nonFinite: 0 }, audioMaxAbsDiff: 0, audioPairs: { finite: 48, nonFinite: 0 }, withinTolerance: true,
    });
    expect(Baseline.parse({ a: c, b: c })).toEqual({ a: c, b: c });
  });

  it('a 2^-20 wobble of one logit mean at step 3 is nondeterminism within tolerance, listed at step 3', () => {
    const steps = makeSteps(6, Q);
    steps[2].logits.mean += 2 ** -20; // |Δ| ≈ 9.5e-7 ≤ logitAbs 1e-3; the float64 sum rounds, so compared to 12 digits
    const c = selfCheck('graph', run(), run(steps), DEFAULT_TOLERANCES, RATES);
    expect(c).toMatchObject({ deterministic: false, differingSteps: [3], firstStep: 3, stage: 'talker-logits', withinTolerance: true, audioMaxAbsDiff: 0 });
    expect(c.largestLogitDiff!.step).toBe(3);
    expect(c.largestLogitDiff!.value).toBeCloseTo(2 ** -20, 12);
  });

  it('a different code at step 5 and one audio sample 0.25 off in frame 2 are beyond tolerance', () => {
    const steps = makeSteps(6, Q);
    steps[4].codes[2] += 1;
    const audio = new Float32Array(48).fill(0.5);
    audio[9] = 0.75; // sample 9 → frame 2
    const c = selfCheck('graph', run(), run(steps, audio), DEFAULT_TOLERANCES, RATES);
    expect(c).toMatchObject({ deterministic: false, differingSteps: [5], firstStep: 5, stage: 'code-predictor', withinTolerance: false, audioMaxAbsDiff: 0.25 });
  });

  it('audio alone differing makes it nondeterministic at the frame of the sample', () => {
    const audio = new Float32Array(48).fill(0.5);
    audio[20] = 0.5 + 2 ** -10; // sample 20 → frame 3; 2^-10 ≈ 9.8e-4 > audioAbs 1e-4 (exact in float32)
    const c = selfCheck('graph', run(), run(undefined, audio), DEFAULT_TOLERANCES, RATES);
    expect(c).toMatchObject({ deterministic: false, differingSteps: [3], firstStep: 3, stage: 'vocoder', withinTolerance: false, audioMaxAbsDiff: 2 ** -10 });
  });
});

describe('baselineLines', () => {
  const same = selfCheck('eager', run(), run(), DEFAULT_TOLERANCES, RATES);
  const codes = makeSteps(6, Q);
  codes[1].codes[1] += 1;
  const noisy = selfCheck('graph', run(), run(codes), DEFAULT_TOLERANCES, RATES);

  it('both deterministic, A vs B diverged: the divergence is between the profiles', () => {
    expect(baselineLines({ a: same, b: same }, 4)).toEqual([
      'A (eager): deterministic: run 2 repeats run 1 bit for bit (steps and audio)',
      'B (eager): deterministic: run 2 repeats run 1 bit for bit (steps and audio)',
      'A vs B: each profile repeats itself within tolerance, so the divergence at step 4 is between the profiles, not run-to-run noise',
    ]);
  });

  it('B differs from itself at step 2 (before A vs B\'s step 4): flagged with its steps, and the divergence may be noise', () => {
    const lines = baselineLines({ a: same, b: noisy }, 4);
    expect(lines[1]).toBe("B (graph): NONDETERMINISTIC: run 2 differs from run 1 at step 2 (beyond the comparison's tolerances)");
    // synthetic-trace.ts: code 1 of step n is (7n) mod 64 = 14 at step 2; run 2 has 15.
    expect(lines[2]).toBe('  first: step 2, code-predictor: code 1: 14 vs 15');
    expect(lines[3]).toBe('  largest logit |Δ| 0; audio max |Δ| 0');
    expect(lines[4]).toBe('A vs B: a profile already differs from itself beyond tolerance at step 2 (≤ 4): the A-vs-B divergence may be nondeterminism');
    expect(baselineLines({ a: same, b: noisy }, 1).at(-1)).toBe('A vs B: the divergence at step 1 comes before any run-to-run difference beyond tolerance (first at step 2)');
    expect(baselineLines({ a: same, b: noisy }, null)).toHaveLength(4);
  });

  it('runs whose logits and audio are all NaN: says no finite values were compared, never "|Δ| 0"', () => {
    const nan = (steps: StepRecord[]) => steps.map((st) => ({ ...st, logits: { ...st.logits, mean: NaN, std: NaN, min: NaN, max: NaN, top5: st.logits.top5.map((t) => ({ ...t, logit: NaN })) } }));
    const silent = new Float32Array(48).fill(NaN);
    const c = selfCheck('graph,fault=nan@1', run(nan(makeSteps(6, Q)), silent), run(nan(codes), silent), DEFAULT_TOLERANCES, RATES);
    expect(c).toMatchObject({ largestLogitDiff: null, logitPairs: { finite: 0, nonFinite: 54 }, audioPairs: { finite: 0, nonFinite: 48 } });
    expect(c.audioMaxAbsDiff).toBeNaN();
    expect(baselineLines({ a: same, b: c }, null)[3]).toBe('  no finite logit statistics compared (all 54 non-finite); no finite audio samples compared (all 48 non-finite)');
    // Some finite, equal; one statistic NaN on both runs: 0 over the finite ones, and the rest named.
    const partly = codes.map((st) => ({ ...st, logits: { ...st.logits, mean: NaN } }));
    const d = selfCheck('graph', run(makeSteps(6, Q).map((st) => ({ ...st, logits: { ...st.logits, mean: NaN } }))), run(partly), DEFAULT_TOLERANCES, RATES);
    expect(baselineLines({ a: same, b: d }, null)[3]).toBe('  largest finite logit |Δ| 0 (6 non-finite not compared); audio max |Δ| 0');
  });
});
