import { describe, expect, it } from 'vitest';
import { compareSignals, type SpectralRunner } from '../../../../electron/common/analysis/compare.js';
import { InputError } from '../../../../electron/common/errors.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import { Metrics } from '../../../../electron/common/report/metrics.js';
import { LoudnessCurves } from '../../../../electron/common/report/report.js';
import { delayedCopy, rmsDb, sine, speechLike, whiteNoise } from '../../../helpers/signals.js';

const fs = 24000;
const db = (g: number) => 20 * Math.log10(g);

/** Every report must survive JSON (non-finite numbers as strings) and match the zod schemas. */
function roundTrips(result: Awaited<ReturnType<typeof compareSignals>>): void {
  expect(() => Metrics.parse(JSON.parse(stringifyReport(result.metrics)))).not.toThrow();
  expect(() => LoudnessCurves.parse(JSON.parse(stringifyReport(result.curves)))).not.toThrow();
}

describe('compareSignals: delayed, scaled, noisy copy', () => {
  // B[n] = 0.8·A[n − 37] + white noise 60 dB below A's RMS (the acceptance signal).
  const a = speechLike(10, fs, 1);
  const noise = whiteNoise(a.length, Math.pow(10, (rmsDb(a) - 60) / 20), 2);
  const b = delayedCopy(a, 37, 0.8, noise);

  it('finds the 37-sample lag, ΔLU = 20·log10 0.8 and gain +1.938 dB', async () => {
    const { metrics: m } = await compareSignals(a, b, fs);
    expect(m.lagSamples).toBe(37);
    expect(m.lagMs).toBeCloseTo((37 / fs) * 1000, 9);
    // Loudness is a power measure, so a gain g shifts it by 20·log10 g; the noise adds 1e-6 of the
    // power (+4e-6 dB) and the 37 leading zeros fall outside the comparison: ±0.01 LU.
    expect(Math.abs(m.loudnessDeltaLU - db(0.8))).toBeLessThan(0.01);
    expect(Math.abs(m.gainDb + db(0.8))).toBeLessThan(0.01);
    expect(m.xcorrPeak).toBeGreaterThan(0.999);
    expect(Math.abs(m.fractionalLagSamples - 37)).toBeLessThan(0.1);
  });

  it('reports the matched null at the noise floor and the aligned null at 20·log10(0.2)', async () => {
    const { metrics: m } = await compareSignals(a, b, fs);
    // After gain 1/0.8 the residual is the noise scaled by 1.25: −60 + 1.938 dB, ±0.3 dB (noise RMS estimate).
    expect(Math.abs(m.matchedNullDepthDb - (-60 - db(0.8)))).toBeLessThan(0.3);
    // Aligned but unscaled, A − B = 0.2·A − noise: null depth 20·log10(0.2) = −13.98 dB (±0.05).
    expect(m.aligned.lagSamples).toBe(37);
    expect(Math.abs(m.aligned.nullDepthDb - db(0.2))).toBeLessThan(0.05);
    expect(m.aligned.snrDb).toBeCloseTo(-m.aligned.nullDepthDb, 9);
    expect(m.aligned.correlation).toBeGreaterThan(0.9999);
    expect(m.aligned.comparedLength).toBe(a.length - 37);
    // A pure gain moves every bin by 20·log10 0.8, so the aligned LSD is ~1.94 dB and the MCD (which
    // leaves out c0, the level) is near 0; at lag 0 the spectra differ far more.
    expect(Math.abs(m.aligned.lsdDb - Math.abs(db(0.8)))).toBeLessThan(0.1);
    expect(m.aligned.mcdDb).toBeLessThan(0.1);
    expect(m.mcdDb).toBeGreaterThan(m.aligned.mcdDb);
    expect(m.nullDepthDb).toBeGreaterThan(m.aligned.nullDepthDb);
  });
});

describe('compareSignals: known answers', () => {
  it('a signal against itself: bit-identical, null −Infinity, SNR +Infinity', async () => {
    const a = speechLike(3, fs, 3);
    const result = await compareSignals(a, a.slice(), fs);
    const m = result.metrics;
    expect(m.bitIdentical).toBe(true);
    expect(m.maxAbsDiff).toBe(0);
    expect(m.correlation).toBe(1);
    expect(m.nullDepthDb).toBe(-Infinity);
    expect(m.snrDb).toBe(Infinity);
    expect(m.matchedNullDepthDb).toBe(-Infinity);
    expect([m.lsdDb, m.mcdDb, m.gainDb, m.lagSamples, m.loudnessDeltaLU]).toEqual([0, 0, 0, 0, 0]);
    expect(m.aligned.bitIdentical).toBe(true);
    expect(stringifyReport(m)).toContain('"nullDepthDb": "-Infinity"');
    roundTrips(result);
  });

  // Two 1 kHz sines 20 dB apart: peak by amplitude, RMS = peak − 3.01 dB, ΔLU = −20 (same spectrum).
  it('sines at −20 and −40 dBFS', async () => {
    const { metrics: m } = await compareSignals(sine(1000, -20, 2, 48000), sine(1000, -40, 2, 48000), 48000);
    expect(m.peakA).toBeCloseTo(-20, 4);
    expect(m.peakB).toBeCloseTo(-40, 4);
    expect(m.rmsA).toBeCloseTo(-20 - db(Math.SQRT2), 3);
    expect(m.rmsB).toBeCloseTo(-40 - db(Math.SQRT2), 3);
    expect(m.loudnessDeltaLU).toBeCloseTo(-20, 3);
    expect(m.gainDb).toBeCloseTo(20, 3);
    expect(m.lagSamples).toBe(0);
    expect(m.correlation).toBeCloseTo(1, 9);
  });

  it('a polarity-inverted copy: negative peak, 0 dB gain, perfect matched null', async () => {
    const a = speechLike(2, fs, 4);
    const { metrics: m } = await compareSignals(
      a,
      a.map((v) => -v),
      fs,
    );
    expect(m.xcorrPeak).toBeLessThan(-0.999);
    expect(m.lagSamples).toBe(0);
    expect(m.gainDb).toBe(0);
    expect(m.matchedNullDepthDb).toBe(-Infinity);
    expect(m.correlation).toBe(-1);
  });

  // B = the same band-limited tone sum evaluated 10.4 samples later (by formula, not by our shifter).
  it('a sub-sample delay: interpolated lag and a matched null far below the integer one', async () => {
    const tone = (shift: number) =>
      Float32Array.from({ length: fs * 2 }, (_, i) => {
        const t = (i - shift) / fs;
        return (
          0.1 *
          (Math.sin(2 * Math.PI * 220 * t) +
            0.5 * Math.sin(2 * Math.PI * 1330 * t + 1) +
            0.3 * Math.sin(2 * Math.PI * 3170 * t + 2))
        );
      });
    const { metrics: m } = await compareSignals(tone(0), tone(10.4), fs);
    expect(m.lagSamples).toBe(10);
    // Parabolic interpolation is biased for narrow-band signals; ±0.2 samples.
    expect(Math.abs(m.fractionalLagSamples - 10.4)).toBeLessThan(0.2);
    expect(m.matchedNullDepthDb).toBeLessThan(m.aligned.nullDepthDb - 10);
  });

  it('different lengths: compares the common part and reports both lengths', async () => {
    const a = speechLike(2, fs, 5);
    const b = new Float32Array(a.length + 12000);
    b.set(a);
    const { metrics: m } = await compareSignals(a, b, fs);
    expect([m.lengthA, m.lengthB, m.lengthDifference, m.comparedLength]).toEqual([
      48000, 60000, 12000, 48000,
    ]);
    expect(m.bitIdentical).toBe(false);
    expect(m.maxAbsDiff).toBe(0);
    expect(m.nullDepthDb).toBe(-Infinity);
  });

  it('silence: loudness −Infinity and no NaN crash; curves are −Infinity', async () => {
    const z = new Float32Array(fs);
    const result = await compareSignals(z, speechLike(1, fs, 6), fs);
    const m = result.metrics;
    expect(m.loudnessA).toBe(-Infinity);
    expect(m.peakA).toBe(-Infinity);
    expect(m.loudnessDeltaLU).toBe(Infinity);
    expect(Number.isNaN(m.xcorrPeak)).toBe(true);
    expect(result.curves.shortTermA.every((v) => v === -Infinity)).toBe(true);
    roundTrips(result);
    roundTrips(await compareSignals(z, z, fs));
  });

  it('a NaN sample gives NaN metrics, not an exception', async () => {
    const a = speechLike(1, fs, 7);
    const b = a.slice();
    b[100] = NaN;
    const result = await compareSignals(a, b, fs);
    expect(Number.isNaN(result.metrics.maxAbsDiff)).toBe(true);
    expect(result.metrics.bitIdentical).toBe(false);
    roundTrips(result);
  });

  it('short signals (under one analysis frame and one 400 ms block) still compare', async () => {
    const a = speechLike(0.02, fs, 8);
    const { metrics: m } = await compareSignals(a, delayedCopy(a, 3, 0.5), fs, { maxLagMs: 1 });
    expect(m.lagSamples).toBe(3);
    expect(m.loudnessA).toBe(-Infinity);
    expect(Number.isFinite(m.lsdDb)).toBe(true);
  });

  it('refuses empty signals and bad options with InputError naming the value', async () => {
    await expect(compareSignals(new Float32Array(0), new Float32Array(10), fs)).rejects.toThrow(InputError);
    await expect(compareSignals(new Float32Array(10), new Float32Array(10), 0)).rejects.toThrow(/found 0/);
    await expect(
      compareSignals(new Float32Array(10), new Float32Array(10), fs, { maxLagMs: -1 }),
    ).rejects.toThrow(/found -1/);
  });
});

describe('compareSignals: its spectral job', () => {
  // A job that fails on its second add, as the aligned pair would fail to start on a worker.
  it('is cancelled, and its error is the one the caller gets, when something fails after an add', async () => {
    const a = speechLike(1, fs, 5);
    const b = delayedCopy(a, 11, 0.9, whiteNoise(a.length, 1e-4, 6));
    const calls: string[] = [];
    const runner: SpectralRunner = () => ({
      add: () => {
        calls.push('add');
        if (calls.length === 2) throw new Error('planted: the aligned pair could not be added');
      },
      distances: () => {
        calls.push('distances');
        return Promise.resolve([]);
      },
      cancel: () => calls.push('cancel'),
    });
    await expect(compareSignals(a, b, fs, { spectral: runner })).rejects.toThrow('planted');
    expect(calls).toEqual(['add', 'add', 'cancel']);
  });
});
