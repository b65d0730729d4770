import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { caseKey } from '../../../electron/common/sweep/sweep-case.js';

export interface ScatterPoint {
  key: string;
  verdict: SummaryCase['verdict'];
  /** Pixel position inside the plot box (y grows downwards). */
  x: number;
  y: number;
  case: SummaryCase;
}

export interface ScatterLayout {
  points: ScatterPoint[];
  /** Cases left out: no audio compared, or a non-finite correlation or ΔLU. */
  omitted: number;
  /** Axis ends: correlation from xMin to 1; ΔLU from −yMax to +yMax (symmetric, so 0 is in the middle). */
  xMin: number;
  yMax: number;
}

/**
 * Correlation (x) against ΔLU (y) for every case with both finite, in a box of `width` × `height`
 * pixels. x runs from the lowest correlation to 1 (a sweep of identical cases gets 0.99..1, so the
 * points do not sit on the edge); y is symmetric around 0 LU, at least ±0.1 LU.
 */
export function scatterLayout(cases: SummaryCase[], width: number, height: number): ScatterLayout {
  const usable = cases.filter((c) => c.correlation !== null && Number.isFinite(c.correlation) && c.loudnessDeltaLU !== null && Number.isFinite(c.loudnessDeltaLU));
  const lowest = Math.min(1, ...usable.map((c) => c.correlation!));
  const xMin = lowest >= 1 ? 0.99 : lowest;
  const yMax = Math.max(0.1, ...usable.map((c) => Math.abs(c.loudnessDeltaLU!)));
  const points = usable.map((c) => ({
    key: caseKey(c),
    verdict: c.verdict,
    x: ((c.correlation! - xMin) / (1 - xMin)) * width,
    y: ((yMax - c.loudnessDeltaLU!) / (2 * yMax)) * height,
    case: c,
  }));
  return { points, omitted: cases.length - usable.length, xMin, yMax };
}
