import { loadImage, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { overlayX } from '../../../electron/common/report/figures/draw-overlay.js';
import { stepX } from '../../../electron/common/report/figures/draw-steps.js';
import { figureNames, figuresMarkdown, reportFigures } from '../../../electron/host/report-html/report-figures.js';
import { DIVERGENCE_SEC, FIRST_STEP, syntheticAudio, syntheticPage } from './synthetic-pair.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function pixels(png: Uint8Array): Promise<{ width: number; height: number; at: (x: number, y: number) => [number, number, number] }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  return { width: image.width, height: image.height, at: (x, y) => [data[4 * (y * image.width + x)], data[4 * (y * image.width + x) + 1], data[4 * (y * image.width + x) + 2]] };
}

// The marker is drawn in #d0021b (figure-context.ts); the background is white.
const isMarkerRed = ([r, g, b]: [number, number, number]) => r > 180 && g < 90 && b < 90;
const isWhite = ([r, g, b]: [number, number, number]) => r === 255 && g === 255 && b === 255;

describe('report figures (PNG)', () => {
  it('names overlay, steps and spectrogram-diff when the audio differs, and no spectrogram when it is identical', () => {
    expect(figureNames(syntheticPage(), syntheticAudio())).toEqual(['overlay.png', 'steps.png', 'spectrogram-diff.png']);
    expect(figureNames(syntheticPage(), syntheticAudio(true))).toEqual(['overlay.png', 'steps.png']);
    expect(figureNames({ steps: [] }, undefined)).toEqual([]);
    expect(figuresMarkdown(['overlay.png'])).toContain('](overlay.png)');
  });

  it('writes valid PNGs with the same bytes on a second run', async () => {
    const first = await reportFigures(syntheticPage(), syntheticAudio());
    const second = await reportFigures(syntheticPage(), syntheticAudio());
    expect(Object.keys(first)).toEqual(['overlay.png', 'steps.png', 'spectrogram-diff.png']);
    for (const [name, bytes] of Object.entries(first)) {
      expect([...bytes.slice(0, 8)], name).toEqual(PNG_SIGNATURE);
      expect(Buffer.from(bytes).equals(Buffer.from(second[name])), `${name} identical across runs`).toBe(true);
      const img = await pixels(bytes);
      expect(img.width).toBe(1200);
    }
  });

  it('marks the first divergence: pixels at its time (overlay) and step (steps) are the marker colour, beside it the background', async () => {
    const figs = await reportFigures(syntheticPage(), syntheticAudio());
    const overlay = await pixels(figs['overlay.png']);
    // y = 22: inside the plot (top margin 18) and above the half-scale tone, so only grid and marker draw there.
    const x = Math.round(overlayX(DIVERGENCE_SEC, { fromSec: 0, toSec: 1 }, overlay.width));
    expect(isMarkerRed(overlay.at(x, 22))).toBe(true);
    expect(isWhite(overlay.at(x - 25, 22))).toBe(true);
    const steps = await pixels(figs['steps.png']);
    const sx = Math.round(stepX(FIRST_STEP, { steps: syntheticPage().steps, firstStep: FIRST_STEP, tolerance: 1e-3 }, steps.width));
    expect(isMarkerRed(steps.at(sx, 60))).toBe(true);
    expect(isWhite(steps.at(sx - 20, 60))).toBe(true);
  });

  it('a NaN |Δ| is drawn on its own row above the scale (y 22), not as a value on it', async () => {
    const page = syntheticPage();
    page.steps = page.steps.map((s) => (s.step === 20 ? { ...s, delta: NaN } : s));
    const img = await pixels((await reportFigures(page, undefined))['steps.png']);
    const fig = { steps: page.steps, firstStep: FIRST_STEP, tolerance: 1e-3 };
    expect(isMarkerRed(img.at(Math.round(stepX(20, fig, img.width)), 22))).toBe(true);
    expect(isWhite(img.at(Math.round(stepX(19, fig, img.width)), 22))).toBe(true);
  });
});
