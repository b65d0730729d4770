import { describe, expect, it } from 'vitest';
import { findSeams, seamLines } from '../../../../electron/common/forensics/seams.js';

// 8 kHz, 10 frames/s, chunks of 2 frames: boundaries every 1,600 samples (k·1600), window the 20 ms (160 samples) before.
const RATES = { sampleRate: 8000, frameRate: 10, chunkFrames: 2, audioAbs: 1e-4 };
const N = 8000; // 1 s: boundaries 1600, 3200, 4800, 6400 (8000 is the end)
const sine = (amp = 0.5) => Float32Array.from({ length: N }, (_, i) => amp * Math.sin((2 * Math.PI * 220 * i) / 8000));

describe('findSeams (synthetic signals with known discontinuities)', () => {
  it('a 0.01 step in B from boundary 2 on: a seam there only (step curvature 0.01 by hand; e is exactly 0 before it: ratio ∞)', () => {
    const a = sine();
    const b = a.map((x, i) => (i >= 3200 ? x + 0.01 : x));
    const r = findSeams(a, b, RATES);
    expect(r.checked).toBe(4);
    expect(r.seams).toHaveLength(1);
    expect(r.seams[0]).toMatchObject({ boundary: 2, frame: 5, sample: 3200, timeSec: 0.4, windowMax: 0, ratio: Infinity });
    expect(r.seams[0].curvature).toBeCloseTo(0.01, 6); // float32 sums: 1e-6
  });

  it('a stale tail: the 40 samples before boundary 1 replayed at boundary 3 are a seam there, not at 1, 2 or 4', () => {
    const a = sine();
    const b = Float32Array.from(a);
    b.set(a.subarray(1560, 1600), 4800);
    expect(findSeams(a, b, RATES).seams.map((s) => s.boundary)).toEqual([3]);
  });

  it('smooth differences are no seam: B 0.1% louder (the boundary is no sharper than the 20 ms before it), or B within audioAbs', () => {
    const a = sine();
    expect(findSeams(a, a.map((x) => x * 1.001), RATES).seams).toEqual([]);
    const tiny = a.map((x, i) => (i >= 3200 ? x + 5e-5 : x)); // a step below audioAbs 1e-4
    expect(findSeams(a, tiny, RATES).seams).toEqual([]);
    expect(findSeams(a, a, RATES)).toMatchObject({ checked: 4, seams: [] });
  });

  it('seamLines: the count and each seam\'s time, sample and frame', () => {
    const a = sine();
    const b = a.map((x, i) => (i >= 3200 ? x + 0.01 : x));
    const lines = seamLines(findSeams(a, b, RATES));
    expect(lines[0]).toBe('Seams at vocoder chunk boundaries (every 2 frames; curvature of B − A over the largest in the 20 ms before > 1.5): 1 of 4 boundaries');
    expect(lines[1]).toMatch(/^ {2}t = 0\.400 s \(sample 3200, frame 5\): B − A flat in the 20 ms before, curvature 0\.01$/);
  });

  it('seamLines: a seam with curvature before it gives its ratio', () => {
    const seam = { boundary: 1, frame: 3, sample: 1600, timeSec: 0.2, curvature: 0.01, windowMax: 0.004, ratio: 2.5 };
    const lines = seamLines({ chunkFrames: 2, checked: 4, ratio: 1.5, windowMs: 20, audioAbs: 1e-4, seams: [seam] });
    expect(lines[1]).toBe('  t = 0.200 s (sample 1600, frame 3): ratio 2.5, curvature 0.01');
  });
});
