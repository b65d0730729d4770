import { describe, expect, it } from 'vitest';
import { divergenceLines, stepTableHeading, stepTableRows } from '../../../../electron/common/forensics/divergence-summary.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { verdictOf } from '../../../../electron/common/forensics/verdict.js';
import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import { logitRow, makeStep, makeSteps } from './synthetic-trace.js';

const silence = new Float32Array(2000);
const sameAudio = { a: silence, b: silence, sampleRate: 24000 };

describe('divergence summary: why a comparison is not identical', () => {
  it('within tolerance: names the largest logit |Δ|, its step and field; the table centres on it', () => {
    const a = makeSteps(8, 3);
    const b = makeSteps(8, 3);
    // Raise step 5's largest logit by 2^-10 ≈ 9.8e-4 (< 1e-3): only the max statistic (and top-1) moves.
    const row = logitRow(5);
    const i = logitStats(row).argmax;
    row[i] += 2 ** -10;
    b[4] = makeStep(5, 3, row);
    const d = localise(a, b, { audio: sameAudio });
    const moved = Math.abs(b[4].logits.max - a[4].logits.max); // float32 rounding of the row: ≈ 2^-10
    expect(d.largestLogitDiff).toEqual({ value: moved, step: 5, field: 'talker max' });
    const verdict = verdictOf(d, { bitIdentical: true });
    expect(verdict).toBe('within-tolerance');
    const lines = divergenceLines(verdict, d);
    // 2^-10 = 9.765625e-4, written with 2 significant digits.
    expect(lines).toContain('Largest logit |Δ|: 9.8e-4 at step 5 (talker max), within 0.001');
    expect(stepTableHeading(d)).toBe('Steps around the largest logit |Δ| (step 5)');
    expect(stepTableRows(d).slice(1).map((r) => r[0])).toEqual(['2', '3', '4', '5', '6', '7', '8']);
  });

  it('a non-finite statistic reads −∞ / ∞ / NaN in the step table, as the studio shows it (not "-Infinity")', () => {
    const a = makeSteps(4, 3);
    const b = makeSteps(4, 3);
    const row = logitRow(3);
    row[0] = Number.POSITIVE_INFINITY;
    row[1] = Number.NEGATIVE_INFINITY;
    b[2] = makeStep(3, 3, row);
    const d = localise(a, b, { audio: sameAudio });
    const step3 = stepTableRows(d).find((r) => r[0] === '3')!;
    const maxB = step3[6];
    expect(maxB).toBe('∞');
    expect(step3.join(' ')).not.toMatch(/Infinity/);
  });

  it('identical: no largest |Δ| line, and the table is "First steps", not "around the first divergence"', () => {
    const d = localise(makeSteps(4, 3), makeSteps(4, 3), { audio: sameAudio });
    expect(d.largestLogitDiff).toBeNull();
    expect(divergenceLines(verdictOf(d, { bitIdentical: true }), d).some((l) => l.startsWith('Largest'))).toBe(false);
    expect(stepTableHeading(d)).toBe('First steps');
  });

  it('traces without audio: the summary says the audio was not compared and the vocoder stage not checked', () => {
    const d = localise(makeSteps(4, 3), makeSteps(4, 3));
    const lines = divergenceLines(verdictOf(d), d);
    expect(lines[0]).toBe('Verdict: within-tolerance (over the traces only: audio not compared)');
    expect(lines[1]).toContain('audio not compared');
    expect(lines[1]).not.toContain('audio within');
    expect(lines).toContain('Audio not compared (no --wav-a/--wav-b): the vocoder stage was not checked, so the verdict cannot be identical');
  });

  it('a talker divergence names its step and that step\'s time; the first differing audio frame is a line of its own', () => {
    const a = makeSteps(12, 3);
    const b = makeSteps(12, 3);
    const row = logitRow(11);
    row[0] += 5; // a real change of step 11's talker logits
    b[10] = makeStep(11, 3, row);
    // Audio that first differs at sample 5000: frame 3 at 24 kHz and 12.5 frames per second (1920 samples each).
    const audioB = new Float32Array(40000);
    audioB[5000] = 0.5;
    const d = localise(a, b, { audio: { a: new Float32Array(40000), b: audioB, sampleRate: 24000 }, frameRate: 12.5 });
    const lines = divergenceLines(verdictOf(d, { bitIdentical: false }), d);
    const first = lines.find((l) => l.startsWith('First divergence:'))!;
    expect(first).toMatch(/^First divergence: step 11, stage talker-logits, .*t = 0\.800 s$/);
    expect(first).not.toContain('vocoder frame');
    expect(lines).toContain('First differing audio sample: 5000 (vocoder frame 3)');
  });
});
