import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareWavs } from '../../../electron/common/wav/compare-wavs.js';
import { decodeWav } from '../../../electron/common/wav/decode-wav.js';
import { alignedDifference, nullDepthDb } from '../../../renderer/src/lib/aligned-difference.js';
import { lagIsReliable } from '../../../electron/common/report/lag-reliability.js';

const wav = (path: string) => ({ path, decoded: decodeWav(new Uint8Array(readFileSync(path)), path) });

describe('aligned difference (the lane and D playback)', () => {
  it('nulls the README sample pair (B 37 samples late, ×0.8, noise 60 dB down) to the report’s matched null', async () => {
    const { report, a, b } = await compareWavs(wav('assets/samples/speech.wav'), wav('assets/samples/speech-quieter-late.wav'), { createdAt: 'test' });
    const m = report.metrics;
    expect(m.lagSamples).toBe(37);
    const gain = 10 ** (Number(m.gainDb) / 20);
    const aligned = alignedDifference(a, b, Number(m.fractionalLagSamples), gain);
    const raw = alignedDifference(a, b, 0, 1);
    // Raw A − B at lag 0 is as loud as the speech (README: null +2.9 dB); aligned it is the added noise.
    expect(nullDepthDb(a, raw)).toBeGreaterThan(0);
    // The report's matched null is over the overlap; ours over the whole take with the ends left at 0,
    // which changes ΣA² by the 37 end samples' energy only: within 0.5 dB of it.
    expect(Math.abs(nullDepthDb(a, aligned) - Number(m.matchedNullDepthDb))).toBeLessThan(0.5);
    expect(Number(m.matchedNullDepthDb)).toBeLessThan(-55);
    expect(lagIsReliable(m.xcorrPeak)).toBe(true);
  });

  it('shifts by a fractional lag with cubic interpolation: a 100 Hz sine delayed by 2.5 samples nulls below −80 dB', () => {
    const rate = 24000;
    const sine = (delay: number) => Float32Array.from({ length: 4800 }, (_, i) => Math.sin((2 * Math.PI * 100 * (i - delay)) / rate));
    const d = alignedDifference(sine(0), sine(2.5), 2.5, 1);
    // Cubic Lagrange error for a sine of ω = 2π·100/24000 rad/sample is about ω⁴/24·(3/8)… ≈ 1e-8 (−160 dB);
    // float32 samples limit it to about −140 dB. −80 dB leaves room and still fails for a linear or no shift.
    expect(nullDepthDb(sine(0), d, 10, 4790)).toBeLessThan(-80);
    expect(nullDepthDb(sine(0), alignedDifference(sine(0), sine(2.5), 2, 1), 10, 4790)).toBeGreaterThan(-40);
  });

  it('calls a lag unreliable below a cross-correlation peak of 0.5 (unrelated takes peak near 0.09)', () => {
    expect(lagIsReliable(0.09)).toBe(false);
    expect(lagIsReliable('NaN')).toBe(false);
    expect(lagIsReliable(-0.97)).toBe(true);
  });
});
