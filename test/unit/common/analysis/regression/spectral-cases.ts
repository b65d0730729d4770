/**
 * Pair sets for spectral-regression.json: generated here (seeded), so no audio file is needed.
 * Regression values, not reference values: the JSON holds what spectralDistances returned for them
 * before its issue-29 speed-ups (s6-speed at aa456f1), written by
 * `npx tsx test/unit/common/analysis/regression/write-spectral-regression.ts` from that commit.
 * They cover what compare-cases.ts does not reach: one pair's floor for a span differing from another
 * pair's, bins mostly under the floor, spans that start past 0, and a short pair beside long ones.
 */
import type { SpectralPair } from '../../../../../electron/common/analysis/spectral.js';
import { delayedCopy, sine, speechLike, whiteNoise } from '../../../../helpers/signals.js';

export interface SpectralCase {
  name: string;
  pairs: SpectralPair[];
  sampleRate: number;
}

const span = (signal: Float32Array, start: number) => ({ signal, start });

export function spectralCases(): SpectralCase[] {
  const a = speechLike(6, 24000, 21);
  const b = delayedCopy(a, 37, 0.8, whiteNoise(a.length, 1e-4, 22));

  // A's loudest samples (95 300 ..< 95 700, ×20) lie in the last frame of the lag-0 pair (94 720 ..< 95 744)
  // and past the aligned pair's (B late by 600: 185 frames, up to 95 232), so the two pairs' floors for A
  // differ.
  const burst = speechLike(4, 24000, 23);
  for (let i = 95300; i < 95700; i++) burst[i] *= 20;
  const burstB = delayedCopy(burst, 600, 1, whiteNoise(burst.length, 1e-3, 24));

  // A quiet sine over a 100 dB range of noise: most bins of both sides lie under their floors.
  const quiet = sine(440, -6, 3, 16000);
  const quietA = delayedCopy(quiet, 0, 1, whiteNoise(quiet.length, 1e-7, 25));
  const quietB = delayedCopy(quiet, 3, 0.5, whiteNoise(quiet.length, 1e-5, 26));

  const short = speechLike(0.03, 48000, 27);
  const long48 = speechLike(2, 48000, 28);
  const long48b = delayedCopy(long48, 11, 1.2, whiteNoise(long48.length, 1e-3, 29));

  return [
    {
      name: 'lag 0 and aligned at 37, sharing A (24 kHz, 6 s)',
      pairs: [
        { a: span(a, 0), b: span(b, 0), length: a.length },
        { a: span(a, 0), b: span(b, 37), length: a.length - 37 },
      ],
      sampleRate: 24000,
    },
    {
      name: "A's loudest frames outside the aligned pair (24 kHz, 4 s)",
      pairs: [
        { a: span(burst, 0), b: span(burstB, 0), length: burst.length },
        { a: span(burst, 0), b: span(burstB, 600), length: burst.length - 600 },
      ],
      sampleRate: 24000,
    },
    {
      name: 'bins mostly under the floor, spans starting past 0 (16 kHz, 3 s)',
      pairs: [
        { a: span(quietA, 0), b: span(quietB, 0), length: quiet.length },
        { a: span(quietA, 100), b: span(quietB, 103), length: quiet.length - 103 },
      ],
      sampleRate: 16000,
    },
    {
      name: 'a pair shorter than a frame beside a long one (48 kHz)',
      pairs: [
        { a: span(short, 0), b: span(long48, 0), length: short.length },
        { a: span(long48, 0), b: span(long48b, 11), length: long48.length - 11 },
      ],
      sampleRate: 48000,
    },
  ];
}
