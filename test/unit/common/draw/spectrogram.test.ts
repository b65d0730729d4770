import { beforeAll, describe, expect, it } from 'vitest';
import { initFft } from '../../../../electron/common/analysis/fft.js';
import { spectrogramOfRange } from '../../../../electron/common/draw/spectrogram.js';

// The spectrogram runs on the shared PFFFT wrapper; in Node the module finds its own .wasm.
beforeAll(() => initFft());

/** The value the spectrogram stores for a level in dB re full scale (floor -100 dB → 0, 0 dB → 255). */
const code = (db: number) => Math.round(Math.min(255, Math.max(0, 255 * (1 + db / 100))));

const rate = 8000;
const fft = 256;
const sine = (hz: number, amp: number) => Float32Array.from({ length: rate }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / rate));

describe('renderer spectrogram (PFFFT)', () => {
  it('a full-scale sine on bin 32 reads 0 dB there, −6.02 dB beside it (Hann), and nothing elsewhere', () => {
    // 1000 Hz at 8 kHz with a 256-point FFT is bin 1000 / (8000 / 256) = 32 exactly. A Hann window's
    // transform on an exact bin has three non-zero lines: the bin at wsum/2 (0 dB after scaling) and
    // its two neighbours at half that, 20·log10(0.5) = −6.02 dB → code 240. Tolerance 1 code (0.4 dB)
    // covers float32 rounding; every other bin is below the floor in exact arithmetic.
    const spec = spectrogramOfRange(sine(1000, 1), rate, 0, rate, 50, fft);
    expect([spec.columns, spec.bins]).toEqual([50, 128]);
    for (const c of [0, 10, 40]) {
      const col = Array.from(spec.data.subarray(c * spec.bins, (c + 1) * spec.bins));
      expect(col.indexOf(Math.max(...col))).toBe(32);
      expect(Math.abs(col[32] - code(0))).toBeLessThanOrEqual(1);
      expect(Math.abs(col[31] - code(-6.02))).toBeLessThanOrEqual(1);
      expect(Math.abs(col[33] - code(-6.02))).toBeLessThanOrEqual(1);
      expect(Math.max(...col.slice(0, 30), ...col.slice(35))).toBeLessThan(code(-60));
    }
  });

  it('a sine at amplitude 0.1 on bin 64 reads −20 dB; silence reads the floor', () => {
    // 2000 Hz → bin 64; 20·log10(0.1) = −20 dB → code 204.
    const spec = spectrogramOfRange(sine(2000, 0.1), rate, 0, rate, 20, fft);
    const col = spec.data.subarray(5 * spec.bins, 6 * spec.bins);
    expect(Math.abs(col[64] - code(-20))).toBeLessThanOrEqual(1);
    const silent = spectrogramOfRange(new Float32Array(4000), rate, 0, 4000, 10, fft);
    expect(Math.max(...silent.data)).toBe(0);
  });

  it('matches a direct Hann-windowed DFT on arbitrary input in every bin (PFFFT bin order, DC slot)', () => {
    // Deterministic noise (32-bit LCG) plus a DC offset, so bin 0 and the packed layout are exercised.
    let state = 12345;
    const x = Float32Array.from({ length: fft }, () => 0.2 + ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5));
    const spec = spectrogramOfRange(x, rate, 0, x.length, 1, fft);
    const w = Array.from({ length: fft }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / fft));
    const wsum = w.reduce((a, b) => a + b, 0);
    for (let k = 0; k < fft / 2; k++) {
      let re = 0;
      let im = 0;
      for (let j = 0; j < fft; j++) {
        re += x[j] * w[j] * Math.cos((2 * Math.PI * j * k) / fft);
        im -= x[j] * w[j] * Math.sin((2 * Math.PI * j * k) / fft);
      }
      const expected = code(20 * Math.log10((2 * Math.hypot(re, im)) / wsum + 1e-12));
      // ±1 code: a float32 transform may round a level that sits near a code boundary the other way.
      expect(Math.abs(spec.data[k] - expected), `bin ${k}`).toBeLessThanOrEqual(1);
    }
  });

  it('a sub-range gets its own columns, centred across it (what a zoomed-in lane draws)', () => {
    // Silence, then a full-scale 1000 Hz sine from sample 4000 on. Samples 3000..5000 in 20 columns:
    // column c is centred on 3000 + (c + ½)·100, its 256-point window ±128 around that. Columns 0–7
    // (centres ≤ 3750) hold only silence; columns 12–19 (centres ≥ 4250) only the sine.
    const x = sine(1000, 1).map((v, i) => (i < 4000 ? 0 : v));
    const spec = spectrogramOfRange(x, rate, 3000, 5000, 20, fft);
    expect(spec.columns).toBe(20);
    expect(spec.hopSec).toBeCloseTo(100 / rate, 12);
    for (let c = 0; c <= 7; c++) expect(spec.data[c * spec.bins + 32], `column ${c}`).toBe(0);
    for (let c = 12; c < 20; c++) expect(Math.abs(spec.data[c * spec.bins + 32] - code(0)), `column ${c}`).toBeLessThanOrEqual(1);
  });

  it('refuses a size PFFFT cannot do, naming it', () => {
    expect(() => spectrogramOfRange(new Float32Array(100), rate, 0, 100, 1, 100)).toThrow(/size 100 is not a PFFFT size/);
  });
});
