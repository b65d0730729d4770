import type { DrawContext } from './draw-context.js';
import type { Viewport } from './viewport.js';

/** Short-term loudness (LUFS) of a take, one value every `hopMs`, as the report's curves hold it. */
export interface LoudnessSeries {
  values: readonly (number | string | null)[];
  hopMs: number;
  color: string;
}

/** The y range shown: from 5 LU under the quietest finite value (not below −70) to 2 LU over the loudest. */
export function loudnessRange(series: readonly LoudnessSeries[]): { min: number; max: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const v of s.values) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (!(hi > -Infinity)) return { min: -70, max: 0 };
  return { min: Math.max(-70, Math.floor(lo - 5)), max: Math.ceil(hi + 2) };
}

/** Each series as a line on the shared timeline (value i at i·hop; a gap where it is not finite). */
export function drawLoudness(ctx: DrawContext, series: readonly LoudnessSeries[], range: { min: number; max: number }, vp: Viewport, width: number, height: number): void {
  const span = vp.end - vp.start;
  if (!(span > 0)) return;
  const y = (v: number) => height - ((v - range.min) / (range.max - range.min)) * height;
  for (const s of series) {
    const hop = s.hopMs / 1000;
    const first = Math.max(0, Math.floor(vp.start / hop) - 1);
    const last = Math.min(s.values.length - 1, Math.ceil(vp.end / hop) + 1);
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let pen = false;
    for (let i = first; i <= last; i++) {
      const v = s.values[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        pen = false;
        continue;
      }
      const px = ((i * hop - vp.start) / span) * width;
      if (pen) ctx.lineTo(px, y(v));
      else ctx.moveTo(px, y(v));
      pen = true;
    }
    ctx.stroke();
  }
}
