import { loadImage, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { stepsFigureX } from '../../../electron/common/draw/steps-figure.js';
import { waveFigureLanes, waveFigureX } from '../../../electron/common/draw/wave-figure.js';
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

// The marker is drawn in #d0021b, seams in #00897b (FIGURE_PALETTE, draw-context.ts); the background is white.
const isMarkerRed = ([r, g, b]: [number, number, number]) => r > 180 && g < 90 && b < 90;
// A NaN step is a full-height bar of the marker colour at 35 % over white: (238, 166, 175).
const isMarkerTint = ([r, g, b]: [number, number, number]) => r > 220 && r - g > 50 && r - b > 40;
const isSeamTeal = ([r, g, b]: [number, number, number]) => r < 40 && g > 110 && g < 170 && b > 90 && b < 160;
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
    // 5 px into the A + B lane: above the half-scale tone, so only the marker draws there.
    const y = waveFigureLanes(overlay.height).ab[0] + 5;
    const x = Math.round(waveFigureX(DIVERGENCE_SEC, { start: 0, end: 1 }, overlay.width));
    expect(isMarkerRed(overlay.at(x, y))).toBe(true);
    expect(isWhite(overlay.at(x - 25, y))).toBe(true);
    const steps = await pixels(figs['steps.png']);
    // y = 24, 4 px into the plot: above the bars of |Δ| 0.5 (they start 7.5 % down the 1e-4..1 scale, y 36), so only the marker draws there.
    const sx = Math.round(stepsFigureX(FIRST_STEP, { deltas: syntheticPage().steps, firstStep: FIRST_STEP, tolerance: 1e-3 }, steps.width));
    expect(isMarkerRed(steps.at(sx, 24))).toBe(true);
    expect(isWhite(steps.at(sx - 20, 24))).toBe(true);
  });

  it('a NaN step is drawn as a full-height bar in the marker tint, above where any value on the scale reaches', async () => {
    const page = syntheticPage();
    // As stepDeltas gives a step whose B statistics hold a NaN: no |Δ|, marked not finite.
    page.steps = page.steps.map((s) => (s.step === 20 ? { step: 20, delta: null, nonFinite: 'B NaN' } : s));
    const img = await pixels((await reportFigures(page, undefined))['steps.png']);
    const fig = { deltas: page.steps, firstStep: FIRST_STEP, tolerance: 1e-3 };
    // Near the right end of each step's column (its "NaN" label is at the left), 4 px into the plot (y 24): the
    // tolerance 1e-3 puts the scale at 1e-4..1, so the 0.5 bars start 7.5 % down it (y 36) and do not reach there.
    const right = (step: number) => Math.round(stepsFigureX(step + 1, fig, img.width)) - 4;
    expect(isMarkerTint(img.at(right(20), 24))).toBe(true);
    expect(isWhite(img.at(right(19), 24))).toBe(true);
    expect(isWhite(img.at(right(21), 24))).toBe(true);
  });

  it('marks each seam with a triangle atop the waveforms at its time, and draws none without seams', async () => {
    const page = { ...syntheticPage(), seams: [{ boundary: 1, timeSec: 0.2 }, { boundary: 2, timeSec: 0.6 }] };
    const overlay = await pixels((await reportFigures(page, syntheticAudio()))['overlay.png']);
    const top = waveFigureLanes(overlay.height).ab[0];
    for (const seam of page.seams) {
      const x = Math.round(waveFigureX(seam.timeSec, { start: 0, end: 1 }, overlay.width));
      expect(isSeamTeal(overlay.at(x, top + 2)), `seam ${seam.boundary}`).toBe(true);
      // The triangle is 8 px wide at its top: 15 px either side is background.
      expect(isWhite(overlay.at(x - 15, top + 2))).toBe(true);
      expect(isWhite(overlay.at(x + 15, top + 2))).toBe(true);
    }
    const clean = await pixels((await reportFigures(syntheticPage(), syntheticAudio()))['overlay.png']);
    let teal = 0;
    for (let y = 0; y < clean.height; y++) for (let x = 0; x < clean.width; x++) if (isSeamTeal(clean.at(x, y))) teal++;
    expect(teal).toBe(0);
  });
});
