import { describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../electron/common/analysis/compare.js';
import { takeCheck } from '../../../../electron/common/analysis/take-condition.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { verdictOf, verdictWords } from '../../../../electron/common/forensics/verdict.js';
import { audioNotComparedReason, NEAR_SILENT_PEAK } from '../../../../electron/common/report/audio-check.js';
import { alignedRows, metricRows } from '../../../../electron/common/report/format/metric-rows.js';

const RATE = 24000;
const tone = (n = RATE) => Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE));

describe('take conditions (report/audio-check.ts thresholds)', () => {
  it('tells silence, a constant, non-finite, near-silent and audible takes apart', () => {
    expect(takeCheck(new Float32Array(100)).condition).toBe('digital-silence');
    // -0 is the same silence as +0.
    expect(takeCheck(Float32Array.from([0, -0, 0])).condition).toBe('digital-silence');
    expect(takeCheck(new Float32Array(100).fill(0.25))).toEqual({ condition: 'constant', nonFinite: 0, peak: 0.25, value: 0.25 });
    const withNan = tone(100);
    withNan[7] = NaN;
    withNan[9] = Infinity;
    expect(takeCheck(withNan)).toMatchObject({ condition: 'non-finite', nonFinite: 2 });
    // Just below and at one 16-bit step (2^-15): the threshold is strict.
    const quiet = tone(100).map((x) => (x / 0.3) * NEAR_SILENT_PEAK * 0.99);
    expect(takeCheck(quiet).condition).toBe('near-silent');
    const step = Float32Array.from([0, NEAR_SILENT_PEAK, -NEAR_SILENT_PEAK]);
    expect(takeCheck(step).condition).toBe('audible');
    expect(takeCheck(tone(100)).condition).toBe('audible');
  });

  it('says each case in one sentence', () => {
    const silent = takeCheck(new Float32Array(10));
    const loud = takeCheck(tone(10));
    const dc = takeCheck(new Float32Array(10).fill(0.5));
    const nan = takeCheck(new Float32Array(10).fill(NaN));
    expect(audioNotComparedReason({ a: silent, b: silent })).toBe('A and B are both digital silence: audio not compared');
    expect(audioNotComparedReason({ a: loud, b: silent })).toBe('B is digital silence: audio not compared');
    expect(audioNotComparedReason({ a: dc, b: loud })).toBe('A is a constant 0.5 (no signal): audio not compared');
    expect(audioNotComparedReason({ a: nan, b: silent })).toBe('A holds 10 NaN/Inf samples and B is digital silence: audio not compared');
    expect(audioNotComparedReason({ a: loud, b: loud })).toBeUndefined();
  });
});

describe('degenerate audio through compareSignals, the verdict and the metric rows', () => {
  const cases: [string, Float32Array, Float32Array, RegExp][] = [
    ['both silent', new Float32Array(RATE), new Float32Array(RATE), /^A and B are both digital silence/],
    ['one silent', tone(), new Float32Array(RATE), /^B is digital silence/],
    ['constant', new Float32Array(RATE).fill(0.1), new Float32Array(RATE).fill(0.1), /^A and B are both a constant 0\.1/],
    ['NaN', new Float32Array(RATE).fill(NaN), new Float32Array(RATE).fill(NaN), /^A and B both hold NaN\/Inf samples/],
  ];
  for (const [name, a, b, reason] of cases) {
    it(`${name}: never a match, no NaN printed`, async () => {
      const { metrics } = await compareSignals(a, b, RATE);
      expect(audioNotComparedReason(metrics.audio)).toMatch(reason);
      // Equal traces (no steps): only the audio decides, and it is never identical or within tolerance.
      const d = localise([], [], { audio: { a, b, sampleRate: RATE } });
      const verdict = verdictOf(d, metrics);
      expect(['diverged', 'degenerate-audio']).toContain(verdict);
      if (name !== 'one silent') expect(verdict).toBe('degenerate-audio');
      expect(verdictWords(verdict, d, undefined, metrics.audio)).toMatch(/audio not compared$/);
      const rows = [...metricRows(metrics), ...alignedRows(metrics)];
      expect(rows[0]).toEqual(['Audio', expect.stringMatching(reason)]);
      for (const [label, value] of rows) expect(`${label}: ${value}`).not.toMatch(/\bNaN\b(?!\/Inf)/);
    });
  }

  it('audible takes keep their verdict and rows', async () => {
    const a = tone();
    const { metrics } = await compareSignals(a, a.slice(), RATE);
    expect(metrics.audio).toEqual({ a: { condition: 'audible', nonFinite: 0, peak: expect.any(Number) }, b: { condition: 'audible', nonFinite: 0, peak: expect.any(Number) } });
    // With no steps the localiser cannot call it identical; what matters here is that it is a match.
    expect(['identical', 'within-tolerance']).toContain(verdictOf(localise([], [], { audio: { a, b: a, sampleRate: RATE } }), metrics));
    expect(metricRows(metrics)[0][0]).toBe('Sample rate');
  });
});
