import { goodFftSize, realFft } from '../../analysis/fft.js';
import { FIGURE_COLORS as C, FIGURE_FONT, type FigureBox, type FigureContext } from './figure-context.js';
import { niceStep, ticksIn } from './nice-ticks.js';

/** Level difference B − A per time column and frequency row, in dB (rows low to high frequency). */
export interface SpectrogramDiff {
  columns: number;
  rows: number;
  /** [columns × rows], column-major: db[c * rows + r]. */
  db: Float32Array;
  durationSec: number;
  nyquistHz: number;
}

const FRAME = 1024;
/** Differences past ±this many dB draw at full colour. */
export const SPECTRO_RANGE_DB = 20;
/** Below this (dBFS of a bin), both sides count as silence, so hiss under it does not paint the figure. */
const FLOOR_DB = -100;

function frameDb(x: Float32Array, start: number, window: Float32Array, rows: number, out: Float32Array): void {
  const fft = realFft(FRAME);
  const buf = fft.buffer();
  for (let i = 0; i < FRAME; i++) {
    const v = x[start + i];
    buf[i] = start + i < x.length && Number.isFinite(v) ? v * window[i] : 0;
  }
  fft.forwardInPlace();
  const spectrum = fft.buffer();
  const bins = FRAME / 2;
  for (let r = 0; r < rows; r++) {
    let power = 0;
    for (let k = Math.floor((r * bins) / rows); k < Math.floor(((r + 1) * bins) / rows); k++) {
      const re = k === 0 ? spectrum[0] : spectrum[2 * k];
      const im = k === 0 ? 0 : spectrum[2 * k + 1];
      power += re * re + im * im;
    }
    out[r] = Math.max(FLOOR_DB, 10 * Math.log10(power / (FRAME * FRAME) + 1e-20));
  }
}

/**
 * B − A in dB over `columns` frames of 1024 samples (Hann window) centred across the longer take (zeros past its ends), each
 * spectrum pooled into `rows` equal bands. `initFft()` must have resolved.
 */
export function spectrogramDiff(a: Float32Array, b: Float32Array, sampleRate: number, columns: number, rows: number): SpectrogramDiff {
  if (goodFftSize(FRAME) !== FRAME) throw new Error('spectrogramDiff: frame size is not a PFFFT size');
  const n = Math.max(a.length, b.length);
  const window = new Float32Array(FRAME).map((_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));
  const db = new Float32Array(columns * rows);
  const da = new Float32Array(rows);
  const dbB = new Float32Array(rows);
  for (let c = 0; c < columns; c++) {
    // Each column is the frame centred on its own time, so features line up with the time axis.
    const start = Math.floor(((c + 0.5) * n) / columns) - FRAME / 2;
    frameDb(a, start, window, rows, da);
    frameDb(b, start, window, rows, dbB);
    for (let r = 0; r < rows; r++) db[c * rows + r] = dbB[r] - da[r];
  }
  return { columns, rows, db, durationSec: n / sampleRate, nyquistHz: sampleRate / 2 };
}

/** Blue (B quieter) through white (equal) to red (B louder). */
function colour(db: number): string {
  const t = Math.max(-1, Math.min(1, db / SPECTRO_RANGE_DB));
  const fade = (v: number) => Math.round(255 - (255 - v) * Math.abs(t));
  return t >= 0 ? `rgb(${fade(208)},${fade(2)},${fade(27)})` : `rgb(${fade(31)},${fade(111)},${fade(209)})`;
}

export const SPECTRO_MARGIN = { left: 56, right: 10, top: 20, bottom: 22 } as const;

/** The heat map of `s`, a frequency axis in kHz, a time axis, the colour key and the divergence marker. */
export function drawSpectrogramDiff(ctx: FigureContext, s: SpectrogramDiff, box: FigureBox, marker?: { sec: number; label: string }): void {
  const { left, right, top, bottom } = SPECTRO_MARGIN;
  const w = box.width - left - right;
  const h = box.height - top - bottom;
  ctx.save();
  ctx.fillStyle = C.background;
  ctx.fillRect(0, 0, box.width, box.height);
  const cw = w / s.columns;
  const rh = h / s.rows;
  for (let c = 0; c < s.columns; c++) {
    for (let r = 0; r < s.rows; r++) {
      ctx.fillStyle = colour(s.db[c * s.rows + r]);
      ctx.fillRect(left + Math.floor(c * cw), top + h - Math.ceil((r + 1) * rh), Math.ceil(cw), Math.ceil(rh));
    }
  }
  ctx.font = FIGURE_FONT;
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const kHz = s.nyquistHz / 1000;
  const fy = niceStep(kHz, 5);
  for (const f of ticksIn(fy.step, kHz, fy.step)) ctx.fillText(`${f.toFixed(fy.digits)} kHz`, left - 4, top + h - (f / kHz) * h);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const tx = niceStep(s.durationSec, Math.max(2, Math.floor(w / 90)));
  for (const t of ticksIn(0, s.durationSec, tx.step)) ctx.fillText(`${t.toFixed(tx.digits)} s`, left + (t / s.durationSec) * w, top + h + 4);
  ctx.textAlign = 'left';
  ctx.fillText(`B − A level: blue −${SPECTRO_RANGE_DB} dB … white 0 … red +${SPECTRO_RANGE_DB} dB`, left, 3);
  if (marker && s.durationSec > 0) {
    const x = Math.round(left + (marker.sec / s.durationSec) * w) + 0.5;
    ctx.strokeStyle = C.fg;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + h);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.restore();
}
