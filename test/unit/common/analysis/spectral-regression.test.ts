import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import {
  frameSize,
  framesOfPair,
  SpectralSession,
  spectralDistances,
  sumFrameDistances,
} from '../../../../electron/common/analysis/spectral.js';
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

// How spectral-thread.ts shares the frames between the worker and the calling thread: frames [0, split) in
// one session, the rest in another, each pair's floor from both sessions' loudest bins, the per-frame
// distances summed in frame order. Any split gives one session's numbers to the bit (in the burst case the
// loudest bin of A lies in the last frame, so a split before it must take the floor from the other part).
describe('spectral distances over frames split between two sessions', () => {
  for (const c of spectralCases()) {
    it(`${c.name}: the same bits at every split`, () => {
      const whole = spectralDistances(c.pairs, c.sampleRate);
      const frames = Math.max(...c.pairs.map((p) => framesOfPair(p.length, frameSize(c.sampleRate))));
      for (const split of [0, 1, 7, Math.floor(frames / 2), frames - 1, frames, frames + 3]) {
        const first = new SpectralSession(c.sampleRate, undefined, { from: 0, to: split });
        const rest = new SpectralSession(c.sampleRate, 40 * BYTES_PER_FRAME_24K, { from: split, to: Infinity });
        // Added in two stages, as compareSignals adds the pair at lag 0 and then the aligned pair.
        for (const stage of [c.pairs.slice(0, 1), c.pairs.slice(1)]) {
          first.add(stage);
          rest.add(stage);
        }
        const [loudestFirst, loudestRest] = [first.loudest(), rest.loudest()];
        const split2 = sumFrameDistances([
          first.frameDistances([loudestFirst, loudestRest]),
          rest.frameDistances([loudestRest, loudestFirst]),
        ]);
        expect(split2, `split at frame ${split}`).toEqual(whole);
      }
    });
  }
});
