import { realFft } from '../analysis/fft.js';
import type { PixelImage } from './draw-context.js';

export interface Spectrogram {
  /** columns × bins, column-major (column c starts at c * bins), bin 0 = DC; 0..255 over `floorDb`..0 dB. */
  data: Uint8Array;
  columns: number;
  bins: number;
  /** Seconds per column. */
  hopSec: number;
}

/**
 * Magnitude spectrogram (Hann window, dB re full scale) of samples [from, to) in `columns` columns:
 * column c is the window centred on from + (c + ½)·(to − from)/columns (moved inside the signal at its
 * ends). A lane asks for one column per pixel of the range in view, so a zoomed-in view gets its own,
 * finer columns and a 10-minute take costs one FFT per pixel however long it is. Runs on the shared
 * PFFFT wrapper: `initFft` must have resolved (in the page, `loadFft` in fft-loader.ts does that).
 * fftSize must be a PFFFT size (`goodFftSize`), e.g. a power of two ≥ 32.
 */
export function spectrogramOfRange(samples: Float32Array, sampleRate: number, from: number, to: number, columns: number, fftSize = 512, floorDb = -100): Spectrogram {
  const fft = realFft(fftSize);
  const bins = fftSize / 2;
  columns = Math.max(1, Math.floor(columns));
  const hop = (to - from) / columns;
  const window = new Float32Array(fftSize);
  let wsum = 0;
  for (let i = 0; i < fftSize; i++) wsum += window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / fftSize);
  // Amplitude of a full-scale sine at bin k is wsum / 2, hence 0 dB there; 255 steps over -floorDb dB.
  // Power instead of magnitude: 10·log10(|X|²·scale²) = 20·log10(|X|·scale), without a square root.
  const scale2 = (2 / wsum) ** 2;
  const perDb = 255 / -floorDb;
  const floorPower = 10 ** (floorDb / 10);
  const data = new Uint8Array(columns * bins);
  const lastStart = Math.max(0, samples.length - fftSize);
  for (let c = 0; c < columns; c++) {
    const start = Math.min(lastStart, Math.max(0, Math.round(from + (c + 0.5) * hop - fftSize / 2)));
    const buf = fft.buffer();
    const have = Math.min(fftSize, samples.length - start);
    for (let i = 0; i < have; i++) {
      const v = samples[start + i];
      // v − v is 0 for a finite sample and NaN for NaN/±Inf, which are drawn as silence.
      buf[i] = v - v === 0 ? v * window[i] : 0;
    }
    for (let i = have; i < fftSize; i++) buf[i] = 0;
    fft.forwardInPlace();
    // PFFFT's ordered real spectrum: slot 0 = DC, slot 1 = Nyquist (not shown), then (re, im) of bin k at 2k, 2k+1.
    const out = fft.buffer();
    const row = c * bins;
    for (let k = 0; k < bins; k++) {
      const power = (k === 0 ? out[0] * out[0] : out[2 * k] * out[2 * k] + out[2 * k + 1] * out[2 * k + 1]) * scale2;
      // Below the floor is code 0 without a logarithm (most bins of quiet audio).
      if (power <= floorPower) {
        data[row + k] = 0;
        continue;
      }
      const db = 10 * Math.log10(power);
      data[row + k] = Math.round(Math.min(255, (db - floorDb) * perDb));
    }
  }
  return { data, columns, bins, hopSec: hop / sampleRate };
}

/** The level in dB re full scale a spectrogram code stands for (inverse of the 0..255 mapping). */
export const codeToDb = (code: number, floorDb = -100): number => floorDb + (code / 255) * -floorDb;

/** Colour of a spectrogram code 0..255: a dark-blue → yellow ramp, readable in both themes. */
export function rampRgb(v: number): [number, number, number] {
  return [Math.min(255, v * 1.2), Math.max(0, v * 1.1 - 40), Math.max(0, 120 - v * 0.4)];
}

/**
 * Paints into `img` what `colour(col, lo, hi)` gives for the bins lo..hi-1 under each pixel row: columns
 * stretched across the width, 0 Hz at the bottom, Nyquist at the top. A row spans several bins when the lane
 * is shorter than the spectrum (a 56 px lane holds 512 bins), so the colour callback sees all of them: one bin
 * per row would drop a tone that falls between the sampled bins.
 */
function paintBins(img: PixelImage, columns: number, bins: number, colour: (col: number, lo: number, hi: number) => [number, number, number]): void {
  const { width, height, data } = img;
  for (let x = 0; x < width; x++) {
    const col = Math.min(columns - 1, Math.floor((x * columns) / width));
    for (let y = 0; y < height; y++) {
      // Row y spans y..y+1 from the top (Nyquist at 0): bins from its bottom edge up to its top edge, at least
      // the bin at its centre.
      const centre = Math.min(bins - 1, Math.floor(((height - y - 0.5) / height) * bins));
      const lo = Math.min(centre, Math.floor(((height - y - 1) / height) * bins));
      const hi = Math.max(centre + 1, Math.min(bins, Math.floor(((height - y) / height) * bins)));
      const [r, g, b] = colour(col, lo, hi);
      const i = 4 * (y * width + x);
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = 255;
    }
  }
}

/** The loudest code of bins lo..hi-1 of column `col`. */
function loudest(spec: Spectrogram, col: number, lo: number, hi: number): number {
  let best = 0;
  for (let k = col * spec.bins + lo, end = col * spec.bins + hi; k < end; k++) if (spec.data[k] > best) best = spec.data[k];
  return best;
}

/** Paints a spectrogram whose columns span the lane's (or figure's) time range into `img`, one pixel per image pixel. */
export function paintSpectrogram(img: PixelImage, spec: Spectrogram): void {
  paintBins(img, spec.columns, spec.bins, (col, lo, hi) => rampRgb(loudest(spec, col, lo, hi)));
}

/** Differences past ±this many dB paint at full colour. */
export const SPECTRO_DIFF_RANGE_DB = 20;

/** Blue (B quieter) through white (equal) to red (B louder). */
export function diffRgb(db: number): [number, number, number] {
  const t = Math.max(-1, Math.min(1, db / SPECTRO_DIFF_RANGE_DB));
  const fade = (v: number) => Math.round(255 - (255 - v) * Math.abs(t));
  return t >= 0 ? [fade(208), fade(2), fade(27)] : [fade(31), fade(111), fade(209)];
}

/**
 * Paints the level difference B − A (dB) of two spectrograms of the same range and shape: white where
 * they agree (silence on both sides too, since both sit at the floor), red where B is louder, blue quieter.
 */
export function paintSpectrogramDiff(img: PixelImage, a: Spectrogram, b: Spectrogram): void {
  // Per pixel row, the loudest bin of each side (the level one sees in each side's own lane), then B − A.
  paintBins(img, a.columns, a.bins, (col, lo, hi) => diffRgb(codeToDb(loudest(b, col, lo, hi)) - codeToDb(loudest(a, col, lo, hi))));
}
