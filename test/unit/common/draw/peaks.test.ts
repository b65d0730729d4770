import { describe, expect, it } from 'vitest';
import { maxAbs } from '../../../../electron/common/analysis/levels.js';
import { buildPeakPyramid, computePeaks, difference } from '../../../../electron/common/draw/peaks.js';

describe('peaks (pure, no DOM)', () => {
  it('keeps short signals as they are (clamped to ±1, NaN drawn at full scale)', () => {
    expect([...computePeaks(new Float32Array([0.5, -2, NaN]), 10)]).toEqual([0.5, -1, 1]);
  });

  it('gives max then min per bucket; each bucket is exactly its slice of the signal', () => {
    // 8 samples in 2 buckets: [0..3] and [4..7].
    const x = new Float32Array([0.1, -0.4, 0.3, 0, 0.9, 0.2, -0.1, -0.8]);
    expect([...computePeaks(x, 2)].map((v) => +v.toFixed(6))).toEqual([0.3, -0.4, 0.9, -0.8]);
  });

  it('pads with silence to a common length so A and B share one timeline', () => {
    // 4 samples over 8: the second bucket is past the end, so 0/0.
    const p = computePeaks(new Float32Array([0.5, 0.5, 0.5, 0.5]), 2, 8);
    expect([...p]).toEqual([0.5, 0.5, 0, 0]);
  });

  it('a pyramid halves the buckets per tier and keeps the envelope (max of maxima, min of minima)', () => {
    const n = 1 << 16;
    const x = new Float32Array(n);
    for (let i = 0; i < n; i++) x[i] = Math.sin(i / 10) * (i / n);
    x[12345] = 0.999; // a lone peak must survive every tier
    const tiers = buildPeakPyramid(x, n, 256, 1 << 12);
    expect(tiers[0].buckets).toBe(1 << 12);
    for (let t = 1; t < tiers.length; t++) expect(tiers[t].buckets).toBe(tiers[t - 1].buckets / 2);
    expect(tiers[tiers.length - 1].buckets).toBeGreaterThanOrEqual(256);
    for (const tier of tiers) expect(Math.max(...tier.peaks)).toBeCloseTo(0.999, 6);
  });

  it('uses the raw samples as the finest tier of short audio', () => {
    const x = new Float32Array(1000).fill(0.25);
    const tiers = buildPeakPyramid(x, 1000, 100, 1 << 12);
    expect(tiers[0].buckets).toBe(1000);
    expect(tiers[0].peaks.length).toBe(1000);
    expect(tiers[1].buckets).toBe(500);
  });

  it('difference is A − B over the common length; maxAbs its largest magnitude', () => {
    const d = difference(new Float32Array([1, 2, 3]), new Float32Array([0.5, 2.5]));
    expect([...d]).toEqual([0.5, -0.5]);
    expect(maxAbs(new Float32Array([0.1, -0.7, 0.3]))).toBeCloseTo(0.7, 7);
  });
});
