import { describe, expect, it } from 'vitest';
import { comparisonSelectors, stepStartSec } from '../../../renderer/src/store/comparison/comparison-selectors.js';
import type { StudioState } from '../../../renderer/src/store/studio-store.js';

const logits = (mean: number | string, max: number | string) => ({ mean, std: 1, min: -1, max, argmax: 0, top5: [] });
const state = (report: unknown) => ({ comparison: { historyId: '20250101-000000-abcdef', report } }) as unknown as StudioState;

const report = {
  verdict: 'diverged',
  metrics: { correlation: 0.5, xcorrPeak: 0.97, lagSamples: 3, lagMs: 0.125, nullDepthDb: '-Infinity', matchedNullDepthDb: -40, loudnessA: -23, loudnessB: -24, loudnessDeltaLU: -1, peakA: -1, peakB: -2, maxAbsDiff: 0.1, lsdDb: 1.5, mcdDb: 0.7, lengthA: 10, lengthB: 12 },
  a: { frameRate: 12.5, profile: 'eager', executionProvider: 'cpu', numerics: { nan: { talker: 0, codePredictor: 0, vocoder: 0 }, inf: { talker: 0, codePredictor: 0, vocoder: 0 } }, steps: [] },
  b: {
    frameRate: 12.5,
    profile: 'eager,fault=nan@talker:2',
    executionProvider: 'cpu',
    fallback: 'cuda unavailable',
    numerics: { nan: { talker: 4, codePredictor: 0, vocoder: 0 }, inf: { talker: 0, codePredictor: 0, vocoder: 0 } },
    steps: [{ step: 2, nan: { talker: 4, codePredictor: 0, vocoder: 0 } }],
  },
  divergence: {
    firstStep: 2,
    divergedSteps: [2, 3],
    steps: [
      { step: 1, a: logits(0.1, 3), b: logits(0.1, 3), codesA: [5, 6], codesB: [5, 6] },
      { step: 2, a: logits(0.2, 4), b: logits('NaN', 'NaN'), codesA: [7, 8], codesB: [7, 9] },
      { step: 3, a: logits(0.3, 5), b: null, codesA: [1, 2], codesB: null },
    ],
  },
};

describe('comparison selectors (pure)', () => {
  it('metric rows carry a value and a one-line explanation; non-finite values in words', () => {
    const rows = comparisonSelectors.metricRows(state(report))!;
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey.correlation.value).toBe('0.500000');
    expect(byKey.nullDepth.value).toBe('−∞ dB');
    // Negative values carry the typographic minus U+2212 (lib/format.ts), as every displayed metric.
    expect(byKey.deltaLU.value).toBe('\u22121.000 LU');
    expect(byKey.peaks.value).toBe('\u22121.00 / \u22122.00 dBFS');
    expect(byKey.lag.value).toBe('3 samples (0.13 ms), peak 0.97');
    const late = comparisonSelectors.metricRows(state({ ...report, metrics: { ...report.metrics, lagSamples: -103, lagMs: -4.2917 } }))!;
    expect(late.find((r) => r.key === 'lag')!.value).toBe('\u2212103 samples (\u22124.29 ms), peak 0.97');
    // The unrelated takes: −103 samples at a peak of 0.09 is no lag at all, and says so.
    const unrelated = comparisonSelectors.metricRows(state({ ...report, metrics: { ...report.metrics, lagSamples: -103, lagMs: -4.2917, xcorrPeak: 0.09 } }))!;
    expect(unrelated.find((r) => r.key === 'lag')!.value).toBe('unreliable: cross-correlation peak 0.09 < 0.5 (the takes are not shifted copies)');
    expect(unrelated.find((r) => r.key === 'matchedNull')!.value).toBe('\u221240.0 dB (lag unreliable: not a shifted copy)');
    expect(byKey.matchedNull.value).toBe('\u221240.0 dB');
    for (const r of rows) expect(r.value, r.key).not.toMatch(/-\d/);
    for (const r of rows) expect(r.explain.length).toBeGreaterThan(20);
    // The same report gives the same array (zustand compares by reference).
    expect(comparisonSelectors.metricRows(state(report))).toBe(rows);
  });

  it('step |Δ|: equal steps 0, a NaN side marked (not a zero, not dropped), a missing side named', () => {
    const s = comparisonSelectors.stepDeltas(state(report))!;
    expect(s.map((d) => d.step)).toEqual([1, 2, 3]);
    expect(s.map((d) => d.delta)).toEqual([0, null, null]);
    expect(s[1].nonFinite).toBe('B NaN');
    expect(s[2].missing).toBe('B');
    expect(comparisonSelectors.stepDeltas(state(report))).toBe(s);
  });

  it('codes matrix marks differing cells, −1 where a side has no frame', () => {
    const c = comparisonSelectors.codes(state(report))!;
    expect([c.frames, c.q]).toEqual([3, 2]);
    expect([...c.b]).toEqual([5, 6, 7, 9, -1, -1]);
    expect(c.differing).toBe(3); // step 2 codebook 1, and both codebooks of step 3
  });

  it('under a delay pattern the codes matrix shows frames, not steps (codebook k from step f + delay k)', () => {
    // delays [0, 1]: step s emits codebook 0 of frame s and codebook 1 of frame s − 1 (BOS 9 at step 1).
    const steps = [
      { step: 1, a: null, b: null, codesA: [5, 9], codesB: [5, 9] },
      { step: 2, a: null, b: null, codesA: [7, 6], codesB: [7, 6] },
      { step: 3, a: null, b: null, codesA: [1, 8], codesB: [1, 4] },
    ];
    const c = comparisonSelectors.codes(state({ ...report, divergence: { ...report.divergence, steps, codebookDelays: [0, 1] } }))!;
    expect([c.frames, c.q]).toEqual([3, 2]);
    expect([...c.a]).toEqual([5, 6, 7, 8, 1, -1]); // frame 3's codebook 1 is not emitted yet
    expect([...c.b]).toEqual([5, 6, 7, 4, 1, -1]);
    expect(c.differing).toBe(1); // frame 2, codebook 1 (emitted at step 3)
  });

  it('divergence time is the start of the first divergent frame: (step − 1) / frameRate', () => {
    expect(comparisonSelectors.divergenceTime(state(report))).toBeCloseTo(1 / 12.5, 12);
    expect(stepStartSec(1, 12.5)).toBe(0);
    expect(comparisonSelectors.divergenceTime(state({ ...report, divergence: { ...report.divergence, firstStep: null } }))).toBeUndefined();
  });

  it('numerics per side: provider, fallback and the steps with NaN/Inf', () => {
    const b = comparisonSelectors.numericsB(state(report))!;
    expect(b.fallback).toBe('cuda unavailable');
    expect(b.badSteps).toEqual(['step 2: talker 4 NaN, 0 Inf']);
    expect(comparisonSelectors.numericsA(state(report))!.badSteps).toEqual([]);
  });

  it('a WAV import (no sides, no divergence) has metrics but no steps, codes or numerics', () => {
    const wav = state({ verdict: 'diverged', metrics: report.metrics });
    expect(comparisonSelectors.metricRows(wav)).toBeDefined();
    expect(comparisonSelectors.stepDeltas(wav)).toBeUndefined();
    expect(comparisonSelectors.codes(wav)).toBeUndefined();
    expect(comparisonSelectors.numericsA(wav)).toBeUndefined();
  });

  it('warnings: a trace comparison’s report.warnings as they are; none (absent or empty) is undefined', () => {
    // The line compare-traces.ts writes for two headers at different frame rates (docs/trace-format.md).
    const line = "the trace headers disagree on frameRate: a.jsonl 12.5/s, b.jsonl 25/s; steps are compared by number and times use A's 12.5/s";
    expect(comparisonSelectors.warnings(state({ kind: 'traces', verdict: 'diverged', warnings: [line] }))).toEqual([line]);
    expect(comparisonSelectors.warnings(state({ kind: 'traces', verdict: 'diverged', warnings: [] }))).toBeUndefined();
    expect(comparisonSelectors.warnings(state(report))).toBeUndefined();
    expect(comparisonSelectors.warnings({} as StudioState)).toBeUndefined();
  });

  it('sourceNotes: each side\'s WAV reading notes, labelled with the side and the file name, A first; none is undefined', () => {
    // Lines the WAV reader writes (electron/common/wav/riff-chunks.ts, decode-wav.ts) for a streamed file.
    const placeholder = 'data size is the streaming placeholder 0xffffffff; read 96000 bytes to the end of the file';
    const dropped = 'streamed data: 3 bytes of an incomplete last frame dropped';
    const source = (path: string | undefined, warnings?: string[]) => ({ path, sampleRate: 24000, channels: 1, downmix: 'mono as is', warnings });
    const wavs = { kind: 'wavs', sources: { a: source('/data/runs/take-a.wav', [placeholder, dropped]), b: source('C:\\runs\\take-b.wav', ['12 bytes after the RIFF chunk ignored']) } };
    expect(comparisonSelectors.sourceNotes(state(wavs))).toEqual([
      `A (take-a.wav): ${placeholder}`,
      `A (take-a.wav): ${dropped}`,
      'B (take-b.wav): 12 bytes after the RIFF chunk ignored',
    ]);
    // The same report gives the same array (zustand compares by reference).
    const s = state(wavs);
    expect(comparisonSelectors.sourceNotes(s)).toBe(comparisonSelectors.sourceNotes(s));
    // Only B has notes; a side with no file (synthesized) is named by its letter alone.
    expect(comparisonSelectors.sourceNotes(state({ sources: { a: source('a.wav'), b: source(undefined, [dropped]) } }))).toEqual([`B: ${dropped}`]);
    expect(comparisonSelectors.sourceNotes(state({ sources: { a: source('a.wav', []), b: source('b.wav') } }))).toBeUndefined();
    expect(comparisonSelectors.sourceNotes(state(report))).toBeUndefined();
    expect(comparisonSelectors.sourceNotes({} as StudioState)).toBeUndefined();
    // Kept apart from report.warnings: the verdict bar lists the report's first, then these.
    expect(comparisonSelectors.warnings(state(wavs))).toBeUndefined();
  });
});
