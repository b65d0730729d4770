import { fftInPlace } from './fft-radix2.js';

export interface Spectrogram {
  /** columns × bins, column-major (column c starts at c * bins), bin 0 = DC; 0..255 over `floorDb`..0 dB. */
  data: Uint8Array;
  columns: number;
  bins: number;
  /** Seconds per column. */
  hopSec: number;
}

/**
 * Magnitude spectrogram (Hann window, dB re full scale) with at most `maxColumns` columns spread over
 * the whole signal, so a 10-minute track costs maxColumns FFTs however long it is.
 */
export function computeSpectrogram(samples: Float32Array, sampleRate: number, fftSize = 512, maxColumns = 2000, floorDb = -100): Spectrogram {
  const bins = fftSize / 2;
  const columns = Math.max(1, Math.min(maxColumns, Math.ceil(samples.length / (fftSize / 4))));
  const hop = samples.length / columns;
  const window = new Float64Array(fftSize);
  let wsum = 0;
  for (let i = 0; i < fftSize; i++) wsum += window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / fftSize);
  const data = new Uint8Array(columns * bins);
  const re = new Float64Array(fftSize);
  const im = new Float64Array(fftSize);
  for (let c = 0; c < columns; c++) {
    const start = Math.floor(c * hop);
    for (let i = 0; i < fftSize; i++) {
      const v = samples[start + i] ?? 0;
      re[i] = (Number.isFinite(v) ? v : 0) * window[i];
      im[i] = 0;
    }
    fftInPlace(re, im);
    for (let k = 0; k < bins; k++) {
      // Amplitude of a full-scale sine at bin k is wsum / 2, hence 0 dB there.
      const mag = (2 * Math.hypot(re[k], im[k])) / wsum;
      const db = 20 * Math.log10(mag + 1e-12);
      data[c * bins + k] = Math.round(255 * Math.min(1, Math.max(0, (db - floorDb) / -floorDb)));
    }
  }
  return { data, columns, bins, hopSec: hop / sampleRate };
}
