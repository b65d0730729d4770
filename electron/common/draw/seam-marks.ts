import type { SeamReport } from '../forensics/seams.js';
import type { VocoderChunkReport } from '../forensics/vocoder-chunks.js';
import { timeToX, type Viewport } from './viewport.js';

/**
 * A seam as the waveform lanes mark it: its chunk boundary (1 = after the first chunk), its time, and, for a
 * vocoder's chunk start (trace header `vocoderChunks`), the frame it starts and whether the audio differs next to it.
 */
export interface SeamMark {
  boundary: number;
  timeSec: number;
  frame?: number;
  /** Which side of the seam the audio differs on ("before", "after", "both sides", "neither side"). */
  differs?: string;
}

/** The parts of any report kind that carry seams. */
export interface SeamParts {
  /** A stream vocoder profile's seams found in B − A (seams.ts). */
  seams?: SeamReport;
  /** Imported traces: where their vocoders cut the audio into chunks (vocoder-chunks.ts). */
  divergence?: { vocoderChunks?: VocoderChunkReport };
}

/** The seams of a comparison's report: those found at a stream profile's boundaries, or the traces' chunk starts. */
export function seamMarks(report: SeamParts | undefined): SeamMark[] {
  const found = (report?.seams?.seams ?? []).map((s) => ({ boundary: s.boundary, timeSec: Number(s.timeSec) }));
  const chunks = report?.divergence?.vocoderChunks;
  const cut = (chunks?.seams ?? []).map((s, k) => ({ boundary: k + 1, timeSec: Number(s.timeSec), frame: s.frame, differs: sideWords(chunks!.chunks[k]?.differs, chunks!.chunks[k + 1]?.differs) }));
  return [...found, ...cut].filter((s) => Number.isFinite(s.timeSec));
}

function sideWords(before: boolean | undefined, after: boolean | undefined): string {
  return before && after ? 'both sides' : before ? 'before' : after ? 'after' : 'neither side';
}

/** What hovering a seam says. */
export function seamText(seam: SeamMark): string {
  if (seam.frame === undefined) return `seam at chunk boundary ${seam.boundary}, ${seam.timeSec.toFixed(3)} s`;
  return `seam ${seam.boundary} (vocoder chunk ${seam.boundary + 1} starts at frame ${seam.frame}), ${seam.timeSec.toFixed(3)} s; audio differs ${seam.differs === 'neither side' ? 'on neither side' : seam.differs === 'both sides' ? 'on both sides' : seam.differs}`;
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
