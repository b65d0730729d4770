import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import { spectralDistances } from '../../../../electron/common/analysis/spectral.js';
import { spectralCases } from './regression/spectral-cases.js';

beforeAll(() => initFft());

// Regression values (regression/spectral-cases.ts says from which commit): dB, to 1e-9 absolute.
const expected = JSON.parse(
  readFileSync(new URL('./regression/spectral-regression.json', import.meta.url), 'utf8'),
) as Record<string, { lsdDb: number; mcdDb: number }[]>;

const BYTES_PER_FRAME_24K = 513 * 8;

describe('spectralDistances: regression values, whatever share of the spectra is kept between passes', () => {
  for (const c of spectralCases()) {
    // All kept (default), none kept (every frame transformed again), and the first 50 frames kept.
    for (const cacheBytes of [undefined, 0, 50 * BYTES_PER_FRAME_24K]) {
      it(`${c.name}, cache ${cacheBytes ?? 'default'}`, () => {
        const found = spectralDistances(c.pairs, c.sampleRate, cacheBytes);
        const want = expected[c.name];
        expect(found).toHaveLength(want.length);
        found.forEach((d, i) => {
          expect(Math.abs(d.lsdDb - want[i].lsdDb), `pair ${i} LSD ${d.lsdDb} vs ${want[i].lsdDb}`).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(d.mcdDb - want[i].mcdDb), `pair ${i} MCD ${d.mcdDb} vs ${want[i].mcdDb}`).toBeLessThanOrEqual(1e-9);
        });
      });
    }
  }
});
