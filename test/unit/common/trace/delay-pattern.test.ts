import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { divergenceLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { codesByFrame, firstDifferingFrame, frameOfStep, stepOfFrame } from '../../../../electron/common/trace/delay-pattern.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import type { TraceStep } from '../../../../electron/common/trace/step-record.js';

// Dia-like pattern on q = 4 (Dia 1.6B: 0, 8, 9, …, 15): codebook k of frame f is emitted at step f + DELAYS[k].
const DELAYS = [0, 2, 3, 4];
const BOS = 66;

/** Emission of frames (rows of q codes) under DELAYS: step s holds codebook k of frame s − DELAYS[k], BOS before it. */
function emit(frames: number[][]): number[][] {
  const steps = frames.length + Math.max(...DELAYS);
  return Array.from({ length: steps }, (_, i) => DELAYS.map((d, k) => frames[i - d]?.[k] ?? BOS));
}
const toSteps = (codes: number[][]): TraceStep[] => codes.map((c, i) => ({ step: i + 1, codes: c }));

describe('delay pattern: step ↔ frame', () => {
  it('maps a step and codebook to its frame and back', () => {
    expect(frameOfStep(7, 3, DELAYS)).toBe(3);
    expect(stepOfFrame(3, 3, DELAYS)).toBe(7);
    expect(frameOfStep(7, 3)).toBe(7); // no pattern: step N is frame N
  });

  it('regroups emitted steps into the frames they came from', () => {
    const frames = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]];
    expect(codesByFrame(emit(frames), 4, DELAYS).slice(0, 3)).toEqual(frames);
    expect(codesByFrame(emit(frames), 4)).toEqual(emit(frames)); // without delays: unchanged
  });

  it('finds the earliest differing frame even when a later step carries it', () => {
    const a = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]];
    const b = a.map((f) => [...f]);
    b[3][0] = 99; // frame 4, codebook 0: emitted at step 4
    b[1][3] = 98; // frame 2, codebook 3: emitted at step 6
    // By step, step 4 differs first (codebook 0); by frame, frame 2 does (its codebook 3 shows at step 6).
    expect(firstDifferingFrame(emit(a), emit(b), DELAYS)).toEqual({ frame: 2, step: 6, codebook: 3 });
    expect(firstDifferingFrame(emit(a), emit(b))).toEqual({ frame: 4, step: 4, codebook: 0 });
  });
});

describe('delay pattern: localisation and report', () => {
  const a = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]];
  const b = a.map((f) => [...f]);
  b[2][3] = 97; // frame 3, codebook 3 differs: emitted at step 3 + 4 = 7

  it('names the step, and the frame and time the difference belongs to', () => {
    const d = localise(toSteps(emit(a)), toSteps(emit(b)), { frameRate: 10, codebookDelays: DELAYS });
    expect(d.firstStep).toBe(7);
    expect(d.codebook).toBe(3);
    expect(d.frame).toEqual({ frame: 3, step: 7, codebook: 3 });
    expect(d.timeSec).toBeCloseTo(0.2, 12); // frame 3 starts at (3 − 1) / 10 s, not step 7's 0.6 s
    const line = divergenceLines('diverged', { ...d, codebookDelays: DELAYS }).find((l) => l.startsWith('First divergence'));
    expect(line).toBe('First divergence: step 7, stage code-predictor, codebook 3, frame 3 (codebook 3 at step 7, emitted 4 steps late), t = 0.200 s');
  });

  it('without a delay pattern keeps step = frame', () => {
    const d = localise(toSteps(emit(a)), toSteps(emit(b)), { frameRate: 10 });
    expect(d.frame).toBeUndefined();
    expect(d.timeSec).toBeCloseTo(0.6, 12);
  });

  it('reads codebookDelays from a header, refuses a wrong count, and old headers load unchanged', () => {
    const header = { schema: 'tts-parity-trace/1', engine: 'dia', q: 4, frameRate: 86.1328125, sampleRate: 44100 };
    const step = JSON.stringify({ step: 1, codes: [BOS, BOS, BOS, BOS] });
    const withDelays = readTrace(`${JSON.stringify({ ...header, codebookDelays: DELAYS })}\n${step}\n`, 'd.jsonl');
    expect(withDelays.header.codebookDelays).toEqual(DELAYS);
    expect(readTrace(`${JSON.stringify(header)}\n${step}\n`, 'old.jsonl').header.codebookDelays).toBeUndefined();
    expect(() => readTrace(`${JSON.stringify({ ...header, codebookDelays: [0, 1] })}\n${step}\n`, 'bad.jsonl')).toThrow(
      'bad.jsonl:1: header: "codebookDelays": expected q = 4 delays (one per codebook), found 2',
    );
  });
});
