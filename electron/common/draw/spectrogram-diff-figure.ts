import { frequencyTicks } from './axis-ticks.js';
import { inPlot, type DrawBox, type Margins, type Palette, type PixelContext, type PixelImage } from './draw-context.js';
import { drawMarks } from './marks.js';
import { paintSpectrogramDiff, SPECTRO_DIFF_RANGE_DB, spectrogramOfRange } from './spectrogram.js';
import { timeTicks } from './time-ticks.js';

/**
 * spectrogram-diff.png: the level difference B − A per time and frequency, from the studio's
 * spectrogram (spectrogramOfRange, the same window and dB scale as its lanes) of each take.
 */
export const SPECTRO_MARGIN: Margins = { left: 56, right: 10, top: 20, bottom: 22 };

/** The shorter take padded with silence to the longer one's length, so both spectrograms span the same time. */
function padded(x: Float32Array, n: number): Float32Array {
  if (x.length >= n) return x;
  const out = new Float32Array(n);
  out.set(x);
  return out;
}

/** `initFft()` must have resolved. One column per 2 px of plot, a 1024-point window. */
export function drawSpectrogramDiffFigure<I extends PixelImage>(ctx: PixelContext<I>, a: Float32Array, b: Float32Array, sampleRate: number, box: DrawBox, c: Palette, marker?: number): void {
  const { left, right, top, bottom } = SPECTRO_MARGIN;
  const w = box.width - left - right;
  const h = box.height - top - bottom;
  const n = Math.max(a.length, b.length);
  const duration = n / sampleRate;
  const vp = { start: 0, end: duration || 1 };
  const columns = Math.ceil(w / 2);
  const specA = spectrogramOfRange(padded(a, n), sampleRate, 0, n, columns, 1024);
  const specB = spectrogramOfRange(padded(b, n), sampleRate, 0, n, columns, 1024);
  ctx.save();
  ctx.fillStyle = c.background;
  ctx.fillRect(0, 0, box.width, box.height);
  const img = ctx.createImageData(w, h);
  paintSpectrogramDiff(img, specA, specB);
  ctx.putImageData(img, left, top);
  ctx.font = c.font;
  ctx.fillStyle = c.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of frequencyTicks(sampleRate, 5)) ctx.fillText(t.label, left - 4, top + t.fromTop * h);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const { unit, ticks } = timeTicks(vp, w, sampleRate, 90);
  // A label centred on the right edge would be cut off: the last one stops short of it.
  for (const t of ticks) if (t.x < w - 20) ctx.fillText(`${t.label} ${unit === 'samples' ? '' : unit}`.trim(), left + t.x, top + h + 4);
  ctx.textAlign = 'left';
  ctx.fillText(`B − A level: blue −${SPECTRO_DIFF_RANGE_DB} dB … white 0 … red +${SPECTRO_DIFF_RANGE_DB} dB`, left, 3);
  // The marker in the text colour: red already means B louder here.
  inPlot(ctx, left, top, w, h, () => drawMarks(ctx, vp, w, h, { divergence: marker }, { ...c, marker: c.fg }));
  ctx.restore();
}
