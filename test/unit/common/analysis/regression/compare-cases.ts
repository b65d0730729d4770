/**
 * The signal pairs of compare-regression.json: generated here (seeded), so no audio file is needed.
 * Regression values, not reference values: compare-regression.json holds what compareSignals returned
 * for these pairs before the analysis speed-ups of issue 29 (main at b9f8eaa), written by
 * `npx tsx test/unit/common/analysis/regression/write-compare-regression.ts` from that commit.
 */
import { delayedCopy, speechLike, whiteNoise } from '../../../../helpers/signals.js';

export interface RegressionCase {
  name: string;
  a: Float32Array;
  b: Float32Array;
  sampleRate: number;
  maxLagMs?: number;
}

export function regressionCases(): RegressionCase[] {
  const a24 = speechLike(12, 24000, 1);
  const a48 = speechLike(4, 48000, 2);
  const a44 = speechLike(3, 44100, 3);
  const withSilence = speechLike(4, 24000, 4);
  withSilence.fill(0, 0, 24000);
  const short = speechLike(0.02, 24000, 5);
  const longer = delayedCopy(speechLike(4.5, 24000, 6), 0, 1, whiteNoise(108000, 1e-3, 7));
  // Band-limited by construction (a few partials well below Nyquist), so a 10.4-sample delay is exact.
  const partials = (delay: number) =>
    Float32Array.from({ length: 72000 }, (_, i) => {
      const t = (i - delay) / 24000;
      return (
        0.3 * Math.sin(2 * Math.PI * 220 * t) +
        0.1 * Math.sin(2 * Math.PI * 1330 * t + 1) +
        0.05 * Math.sin(2 * Math.PI * 4100 * t + 2)
      );
    });
  return [
    {
      name: 'delayed 37, gain 0.8, noise (24 kHz, 12 s)',
      a: a24,
      b: delayedCopy(a24, 37, 0.8, whiteNoise(a24.length, 1e-4, 11)),
      sampleRate: 24000,
    },
    {
      name: 'B early by 120 (48 kHz, 4 s)',
      a: delayedCopy(a48, 120, 1, whiteNoise(a48.length, 1e-3, 12)),
      b: a48,
      sampleRate: 48000,
    },
    {
      name: 'gain 0.5 + noise, lag 0 (44.1 kHz, 3 s)',
      a: a44,
      b: delayedCopy(a44, 0, 0.5, whiteNoise(a44.length, 3e-3, 13)),
      sampleRate: 44100,
    },
    {
      name: 'polarity inverted, lag 5, maxLag 2 ms',
      a: a24.subarray(0, 48000),
      b: delayedCopy(a24.subarray(0, 48000), 5, -1, whiteNoise(48000, 1e-5, 14)),
      sampleRate: 24000,
      maxLagMs: 2,
    },
    {
      name: 'first second digital silence',
      a: withSilence,
      b: delayedCopy(withSilence, 3, 0.9, whiteNoise(withSilence.length, 1e-6, 15)),
      sampleRate: 24000,
    },
    {
      name: 'shorter than a frame',
      a: short,
      b: delayedCopy(short, 2, 1.1, whiteNoise(short.length, 1e-3, 16)),
      sampleRate: 24000,
    },
    {
      name: 'fractional delay 10.4 samples (three partials, 3 s)',
      a: partials(0),
      b: partials(10.4),
      sampleRate: 24000,
    },
    { name: 'unequal lengths (4 s vs 4.5 s)', a: longer.subarray(0, 96000), b: longer, sampleRate: 24000 },
  ];
}
