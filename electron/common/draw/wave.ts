import type { DrawContext } from './draw-context.js';
import type { PeakTier } from './peaks.js';
import type { Viewport } from './viewport.js';

/**
 * A waveform to draw: its samples, its peak pyramid (buildPeakPyramid over `total` samples) and rate.
 * Without samples (report.html past its audio size limit embeds max/min pairs only) the finest tier is
 * drawn at every zoom; without tiers the samples are scanned per redraw (a PNG, drawn once).
 */
export interface WaveSource {
  samples: Float32Array;
  tiers: PeakTier[];
  /** Samples on the shared timeline the pyramid was built over (the longer take). */
  total: number;
  sampleRate: number;
}

/** How amplitude maps to height: a gain (vertical zoom) and linear or dB (−60..0 dBFS folded about the centre). */
export interface AmplitudeScale {
  gain: number;
  db: boolean;
}

export const LINEAR: AmplitudeScale = { gain: 1, db: false };
const DB_FLOOR = -60;

/** −1..1 amplitude → −1..1 of the half-height, clipped. */
export function amplitudeY(v: number, scale: AmplitudeScale): number {
  let y = v * scale.gain;
  if (scale.db) {
    const mag = Math.abs(y);
    const db = mag > 0 ? 20 * Math.log10(mag) : -Infinity;
    y = Math.sign(y) * Math.max(0, (db - DB_FLOOR) / -DB_FLOOR);
  }
  return y > 1 ? 1 : y < -1 ? -1 : Number.isNaN(y) ? 1 : y;
}

/** Samples per screen pixel under which single samples are drawn (joined by lines, as points when ≥ 6 px apart). */
const SAMPLE_DRAW_MAX = 0.5;
/** Up to this many samples per pixel the min/max of each column comes from the samples themselves. */
const RAW_MINMAX_MAX = 256;

/**
 * Draws one waveform into the box (x from 0 to width, y from top to top + height) for the viewport:
 * single samples when zoomed in that far, else each pixel column's min and max (from the samples or
 * the coarsest pyramid tier with two or more buckets per column, so the cost follows the width).
 */
export function drawWave(ctx: DrawContext, src: WaveSource, vp: Viewport, width: number, top: number, height: number, color: string, scale: AmplitudeScale = LINEAR): void {
  const span = vp.end - vp.start;
  if (!(span > 0) || width <= 0 || src.total === 0) return;
  const mid = top + height / 2;
  const half = height / 2 - 1;
  const rate = src.sampleRate;
  const perPx = (span * rate) / width;
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  if (perPx <= SAMPLE_DRAW_MAX && src.samples.length > 0) {
    const first = Math.max(0, Math.floor(vp.start * rate) - 1);
    const last = Math.min(src.samples.length - 1, Math.ceil(vp.end * rate) + 1);
    const x = (n: number) => ((n / rate - vp.start) / span) * width;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let n = first; n <= last; n++) {
      const px = x(n);
      const py = mid - amplitudeY(src.samples[n], scale) * half;
      if (n === first) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    ctx.stroke();
    if (1 / perPx >= 6) for (let n = first; n <= last; n++) ctx.fillRect(x(n) - 1.5, mid - amplitudeY(src.samples[n], scale) * half - 1.5, 3, 3);
    return;
  }
  const column = perPx <= RAW_MINMAX_MAX && src.samples.length > 0 ? rawColumns(src.samples, vp, width, rate) : tierColumns(src, vp, width, perPx);
  for (let x = 0; x < width; x++) {
    const hi = column[2 * x];
    const lo = column[2 * x + 1];
    if (hi < lo) continue;
    const y0 = mid - amplitudeY(hi, scale) * half;
    const y1 = mid - amplitudeY(lo, scale) * half;
    ctx.fillRect(x, y0, 1, Math.max(1, y1 - y0));
  }
}

/** Per pixel column [max, min] from the samples (max < min where the column holds none). */
function rawColumns(samples: Float32Array, vp: Viewport, width: number, rate: number): Float32Array {
  const out = new Float32Array(2 * width);
  const per = ((vp.end - vp.start) * rate) / width;
  const base = vp.start * rate;
  for (let x = 0; x < width; x++) {
    const from = Math.max(0, Math.floor(base + x * per));
    const to = Math.min(samples.length, Math.max(from + 1, Math.floor(base + (x + 1) * per)));
    let hi = -Infinity;
    let lo = Infinity;
    for (let i = from; i < to; i++) {
      const v = samples[i];
      if (v > hi || Number.isNaN(v)) hi = Number.isNaN(v) ? 1 : v;
      if (v < lo) lo = v;
    }
    out[2 * x] = hi;
    out[2 * x + 1] = lo === Infinity && hi !== -Infinity ? hi : lo;
  }
  return out;
}

function tierColumns(src: WaveSource, vp: Viewport, width: number, perPx: number): Float32Array {
  const out = new Float32Array(2 * width);
  // Pair tiers hold 2 values per bucket; tier 0 of short audio is the samples themselves (buckets = total).
  let tier: PeakTier | undefined;
  const pairs = src.tiers.filter((t) => t.peaks.length === 2 * t.buckets);
  for (const t of pairs) if (src.total / t.buckets <= perPx / 2) tier = t;
  if (!tier && src.samples.length === 0) tier = pairs[0];
  if (!tier) return rawColumns(src.samples, vp, width, src.sampleRate);
  const per = src.total / tier.buckets;
  const base = vp.start * src.sampleRate;
  for (let x = 0; x < width; x++) {
    const from = Math.max(0, Math.floor((base + x * perPx) / per));
    const to = Math.min(tier.buckets, Math.max(from + 1, Math.floor((base + (x + 1) * perPx) / per)));
    let hi = -Infinity;
    let lo = Infinity;
    for (let b = from; b < to; b++) {
      if (tier.peaks[2 * b] > hi) hi = tier.peaks[2 * b];
      if (tier.peaks[2 * b + 1] < lo) lo = tier.peaks[2 * b + 1];
    }
    out[2 * x] = hi;
    out[2 * x + 1] = lo;
  }
  return out;
}

/** The gain that makes a difference of peak `maxAbs` fill its lane (1 when there is none), capped at 10⁶. */
export function diffGainFor(maxAbs: number): number {
  return maxAbs > 0 && Number.isFinite(maxAbs) ? Math.min(1e6, 1 / maxAbs) : 1;
}
