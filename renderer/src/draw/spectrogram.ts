import type { Spectrogram } from '../lib/spectrogram.js';

/** Colour of a spectrogram code 0..255: a dark-blue → yellow ramp, readable in both themes. */
export function rampRgb(v: number): [number, number, number] {
  return [Math.min(255, v * 1.2), Math.max(0, v * 1.1 - 40), Math.max(0, 120 - v * 0.4)];
}

/**
 * Paints a spectrogram whose columns already span the lane's time range (one per pixel column, or
 * stretched when fewer) into an image `width` × `height` device pixels: 0 Hz at the bottom, Nyquist at the top.
 */
export function paintSpectrogram(img: ImageData, spec: Spectrogram): void {
  const { width, height, data } = img;
  for (let x = 0; x < width; x++) {
    const col = Math.min(spec.columns - 1, Math.floor((x * spec.columns) / width));
    for (let y = 0; y < height; y++) {
      // The bin at the pixel row's centre (row y spans y..y+1 from the top, Nyquist at 0).
      const bin = Math.min(spec.bins - 1, Math.floor(((height - y - 0.5) / height) * spec.bins));
      const [r, g, b] = rampRgb(spec.data[col * spec.bins + bin]);
      const i = 4 * (y * width + x);
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = 255;
    }
  }
}
