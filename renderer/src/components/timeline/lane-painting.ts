import { drawMarks } from '../../../../electron/common/draw/marks.js';
import { seamMarks, type SeamMark, type SeamParts } from '../../../../electron/common/draw/seam-marks.js';
import { comparisonSelectors } from '../../store/comparison/comparison-selectors.js';
import type { StudioState } from '../../store/studio-store.js';
import { colors } from '../theme.js';
import type { LaneSpec } from './lane-specs.js';

// Painting the lanes' canvases and their one overlay (playhead, hover, loop, first divergence, seams).

/** y of each lane's top, and the total height last. */
export function laneTops(lanes: LaneSpec[]): number[] {
  const tops = [0];
  for (const lane of lanes) tops.push(tops[tops.length - 1] + lane.height);
  return tops;
}

export function paintLane(canvas: HTMLCanvasElement, lane: LaneSpec, s: StudioState): void {
  const width = Math.max(1, s.laneWidth);
  const height = lane.height;
  const ratio = lane.rawPixels ? 1 : window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  if (s.viewport.end > s.viewport.start) lane.draw(ctx, s.viewport, width, height);
}

/** The seams of a stream-vocoder comparison (docs/forensics.md "Seams") or of traces whose vocoder chunks are known; none for any other. */
export function comparisonSeams(s: StudioState): SeamMark[] {
  return seamMarks(s.comparison?.report as SeamParts | undefined);
}

/** The y range of the waveform lanes (A/B and difference), where seams are marked. */
function waveBand(lanes: LaneSpec[]): { top: number; bottom: number } | undefined {
  const tops = laneTops(lanes);
  const rows = lanes.map((lane, i) => ({ id: lane.id, top: tops[i], bottom: tops[i + 1] })).filter((r) => r.id === 'ab' || r.id === 'diff');
  return rows.length > 0 ? { top: rows[0].top, bottom: rows[rows.length - 1].bottom } : undefined;
}

export function paintOverlay(canvas: HTMLCanvasElement, s: StudioState, lanes: LaneSpec[]): void {
  const width = Math.max(1, s.laneWidth);
  const height = canvas.clientHeight || 1;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const c = colors();
  const band = waveBand(lanes);
  const seams = comparisonSeams(s);
  drawMarks(ctx, s.viewport, width, height, {
    position: s.position,
    hover: s.hover?.time,
    loop: s.loop,
    loopOn: s.loopOn,
    divergence: comparisonSelectors.divergenceTime(s),
    seams: band && seams.length > 0 ? { marks: seams, ...band } : undefined,
  }, c);
}
