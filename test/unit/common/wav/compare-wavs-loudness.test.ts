import { describe, expect, it } from 'vitest';
import { compareWavs, type WavInput } from '../../../../electron/common/wav/compare-wavs.js';
import type { DecodedWav } from '../../../../electron/common/wav/decode-wav.js';
import { sine } from '../../../helpers/signals.js';

const RATE = 48000;

/** 1 kHz sine segments [level dBFS, seconds] joined end to end: one channel of an EBU Tech 3341 signal. */
function segments(parts: Array<[number, number]>): Float32Array {
  const pieces = parts.map(([db, seconds]) => sine(1000, db, seconds, RATE));
  const out = new Float32Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function wav(path: string, channels: Float32Array[]): WavInput {
  const decoded = { sampleRate: RATE, channels, format: 'float32', warnings: [] } as unknown as DecodedWav;
  return { path, decoded };
}

async function headline(channels: Float32Array[]) {
  const { report } = await compareWavs(wav('a.wav', channels), wav('b.wav', channels), {
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  return report.metrics;
}

// EBU Tech 3341 (2016) §2.9 Table 1, minimum requirements, 1 kHz sines: expected −23.0 LUFS (case 2:
// −33.0) within ±0.1 LU, the tolerance the document gives meters. Cases 1–5 are stereo with the same
// signal in both channels; case 6 is 5.0 (L, R at −28 dBFS, C at −24, Ls, Rs at −30).
const STEREO: Array<[string, Array<[number, number]>, number]> = [
  ['case 1: −23 dBFS, 20 s', [[-23, 20]], -23],
  ['case 2: −33 dBFS, 20 s', [[-33, 20]], -33],
  [
    'case 3: −36/−23/−36 dBFS, 10/60/10 s (relative gate)',
    [
      [-36, 10],
      [-23, 60],
      [-36, 10],
    ],
    -23,
  ],
  [
    'case 4: −72/−36/−23/−36/−72 dBFS, 10/10/60/10/10 s (both gates)',
    [
      [-72, 10],
      [-36, 10],
      [-23, 60],
      [-36, 10],
      [-72, 10],
    ],
    -23,
  ],
  [
    'case 5: −26/−20/−26 dBFS, 20/20.1/20 s',
    [
      [-26, 20],
      [-20, 20.1],
      [-26, 20],
    ],
    -23,
  ],
];

describe('compare-wav loudness is BS.1770 all-channel loudness, not the downmix', () => {
  it.each(STEREO)('EBU Tech 3341 %s reads %s LUFS ±0.1', async (_name, parts, expected) => {
    const channel = segments(parts);
    const m = await headline([channel, channel]);
    expect(Math.abs((m.loudnessA as number) - expected)).toBeLessThanOrEqual(0.1);
    expect(m.loudnessDeltaLU).toBe(0);
    // The mono downmix of two equal channels is one channel: 3.01 dB below the two-channel sum.
    expect(Math.abs((m.loudnessDownmixA as number) - (expected - 10 * Math.log10(2)))).toBeLessThanOrEqual(
      0.1,
    );
  });

  it('EBU Tech 3341 case 6: 5.0 with surrounds weighted 1.41 reads −23.0 LUFS ±0.1', async () => {
    const front = segments([[-28, 20]]);
    const centre = segments([[-24, 20]]);
    const surround = segments([[-30, 20]]);
    const m = await headline([front, front, centre, surround, surround]);
    expect(Math.abs((m.loudnessA as number) + 23)).toBeLessThanOrEqual(0.1);
    expect(m.loudnessDownmixA).toBeLessThan(-30); // what compare-wav reported before (−32.3)
  });

  it('a mono file has no separate downmix loudness', async () => {
    const m = await headline([segments([[-23, 5]])]);
    expect(m.loudnessDownmixA).toBeUndefined();
    expect(Math.abs((m.loudnessA as number) + 26.01)).toBeLessThanOrEqual(0.1); // one channel: −23 − 3.01
  });
});

describe('compareWavs: the difference signal', () => {
  it('is built on first read only, then kept', async () => {
    const a = Float32Array.from({ length: 4800 }, (_, i) => Math.sin(i / 10));
    const b = a.map((v) => 0.5 * v);
    const result = await compareWavs(wav('a.wav', [a]), wav('b.wav', [b]), {
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const descriptor = Object.getOwnPropertyDescriptor(result, 'diff');
    expect(typeof descriptor?.get).toBe('function');
    const diff = result.diff;
    expect(result.diff).toBe(diff);
    expect(diff[10]).toBeCloseTo(a[10] - b[10], 7);
  });
});
