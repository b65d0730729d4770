import type { TensorSummary } from '../../common/report/drill.js';
import { valuesOf, type TensorCopy } from './tensor-copy.js';

export interface DrillTolerance {
  abs: number;
  rel: number;
}

export interface TensorDiff {
  maxAbsDiff: number;
  differing: number;
  nanCount: number;
  side: 'A' | 'B' | 'both' | null;
  a: TensorSummary;
  b: TensorSummary;
}

function summary(dims: number[], v: Float64Array): TensorSummary {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let finite = 0;
  let nan = 0;
  let inf = 0;
  for (const x of v) {
    if (Number.isNaN(x)) nan++;
    else {
      if (x < min) min = x;
      if (x > max) max = x;
      if (Number.isFinite(x)) {
        sum += x;
        finite++;
      } else inf++;
    }
  }
  const round = (x: number): number => (Number.isFinite(x) ? Number(x.toPrecision(6)) : x);
  return { shape: dims, min: round(v.length > nan ? min : NaN), max: round(v.length > nan ? max : NaN), mean: round(finite ? sum / finite : NaN), nan, inf };
}

/**
 * Element by element: |a − b| ≤ abs + rel·max(|a|, |b|) matches; equal infinities match; NaN never
 * matches a number. null when the shapes differ (the tensors are not comparable).
 */
export function diffTensors(a: TensorCopy, b: TensorCopy, tol: DrillTolerance): TensorDiff | null {
  if (a.dims.length !== b.dims.length || a.dims.some((d, i) => d !== b.dims[i])) return null;
  const va = valuesOf(a);
  const vb = valuesOf(b);
  let maxAbsDiff = 0;
  let differing = 0;
  for (let i = 0; i < va.length; i++) {
    const x = va[i];
    const y = vb[i];
    if (x === y) continue;
    const nanX = Number.isNaN(x);
    const nanY = Number.isNaN(y);
    if (nanX && nanY) continue;
    if (nanX || nanY) {
      differing++;
      maxAbsDiff = NaN;
      continue;
    }
    const d = Math.abs(x - y);
    if (!(d <= tol.abs + tol.rel * Math.max(Math.abs(x), Math.abs(y)))) differing++;
    if (!Number.isNaN(maxAbsDiff) && d > maxAbsDiff) maxAbsDiff = d;
  }
  const sa = summary(a.dims, va);
  const sb = summary(b.dims, vb);
  const side = sa.nan > 0 && sb.nan > 0 ? 'both' : sa.nan > 0 ? 'A' : sb.nan > 0 ? 'B' : null;
  return { maxAbsDiff, differing, nanCount: sa.nan + sb.nan, side, a: sa, b: sb };
}

/** A finding: something beyond tolerance, or a NaN on either side. */
export const isFinding = (d: TensorDiff): boolean => d.differing > 0 || d.nanCount > 0;
