import type { SeamReport } from '../forensics/seams.js';
import { timeToX, type Viewport } from './viewport.js';

/** A seam as the waveform lanes mark it: its chunk boundary (1 = after the first chunk) and its time. */
export interface SeamMark {
  boundary: number;
  timeSec: number;
}

/** The seams of a comparison's report (none without a stream vocoder or without seams). */
export function seamMarks(report: SeamReport | undefined): SeamMark[] {
  return (report?.seams ?? []).map((s) => ({ boundary: s.boundary, timeSec: Number(s.timeSec) })).filter((s) => Number.isFinite(s.timeSec));
}

/** What hovering a seam says. */
export function seamText(seam: SeamMark): string {
  return `seam at chunk boundary ${seam.boundary}, ${seam.timeSec.toFixed(3)} s`;
}

/** The seam whose mark is within `px` of x (the nearest), if any. */
export function seamNear(seams: readonly SeamMark[], vp: Viewport, width: number, x: number, px = 5): SeamMark | undefined {
  let best: SeamMark | undefined;
  let bestDist = px;
  for (const s of seams) {
    const d = Math.abs(timeToX(vp, width, s.timeSec) - x);
    if (d <= bestDist) {
      best = s;
      bestDist = d;
    }
  }
  return best;
}
