import { integerIncrs } from '../../../electron/common/draw/axis-ticks.js';

/**
 * Where the codes grid draws: frames are columns numbered from 1 (frame N comes from step N, as in
 * DESIGN.md), codebooks are rows numbered 0..Q−1 (0 is the talker's code). Both axes are labelled.
 */
export interface CodesLayout {
  /** Left margin: the codebook axis title and numbers. */
  left: number;
  /** Bottom margin: the frame numbers and the axis title. */
  bottom: number;
  cellW: number;
  rowH: number;
  width: number;
  height: number;
  /** Frame numbers to label (1-based) and the x of their column centre. */
  frameTicks: { frame: number; x: number }[];
  /** Codebooks to label (0-based) and the y of their row centre. */
  codebookTicks: { codebook: number; y: number }[];
}

const LEFT = 58;
const BOTTOM = 34;
const MIN_CELL = 3;
const MAX_CELL = 48;
/** Labels closer than this (px) would overlap. */
const MIN_TICK_GAP = 36;

/** Fills `available` px of panel width; under 3 px a column the grid is wider and scrolls. */
export function codesLayout(available: number, frames: number, q: number): CodesLayout {
  const cellW = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((available - LEFT - 8) / Math.max(1, frames))));
  const rowH = q <= 16 ? 16 : 10;
  const step = integerIncrs().find((n) => n * cellW >= MIN_TICK_GAP) ?? frames;
  const frameTicks: CodesLayout['frameTicks'] = [];
  for (let frame = 1; frame <= frames; frame = frame === 1 && step > 1 ? step : frame + step) {
    frameTicks.push({ frame, x: LEFT + (frame - 1) * cellW + cellW / 2 });
  }
  const rowStep = rowH >= 14 ? 1 : 2;
  const codebookTicks = Array.from({ length: Math.ceil(q / rowStep) }, (_, i) => ({ codebook: i * rowStep, y: i * rowStep * rowH + rowH / 2 }));
  return { left: LEFT, bottom: BOTTOM, cellW, rowH, width: LEFT + frames * cellW, height: q * rowH + BOTTOM, frameTicks, codebookTicks };
}

/** The cell under a point of the canvas, or undefined outside the cells. */
export function codesCellAt(layout: CodesLayout, frames: number, q: number, x: number, y: number): { frame: number; codebook: number } | undefined {
  const f = Math.floor((x - layout.left) / layout.cellW);
  const k = Math.floor(y / layout.rowH);
  if (x < layout.left || f >= frames || y < 0 || k >= q) return undefined;
  return { frame: f + 1, codebook: k };
}
