import type { TensorSummary } from '../report/drill.js';
import { AbsDiffFold, type PairCounts } from './abs-diff.js';

/**
 * Element-wise comparison of two float tensors of one shape, the rule of both drill-downs (the ONNX
 * one in engine/drill/tensor-diff.ts, the module one of foreign traces): |a − b| ≤ abs + rel·max(|a|, |b|) matches, equal infinities match,
 * NaN matches no number (NaN against NaN is not a difference, but is counted as a NaN).
 */
export interface FloatTolerance {
  abs: number;
  rel: number;
}

export interface FloatDiff {
  /** Largest |a − b| (abs-diff.ts): NaN when a NaN meets a number, or when no pair was finite on both sides. */
  maxAbsDiff: number;
  /** Element pairs finite on both sides and those holding a NaN or an infinity: `finite` 0 means nothing was measured. */
  pairs: PairCounts;
  differing: number;
  nanCount: number;
  side: 'A' | 'B' | 'both' | null;
  a: TensorSummary;
  b: TensorSummary;
}

export function summarise(shape: number[], v: ArrayLike<number>): TensorSummary {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let finite = 0;
  let nan = 0;
  let inf = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (Number.isNaN(x)) {
      nan++;
      continue;
    }
    if (x < min) min = x;
    if (x > max) max = x;
    if (Number.isFinite(x)) {
      sum += x;
      finite++;
    } else inf++;
  }
  const round = (x: number): number => (Number.isFinite(x) ? Number(x.toPrecision(6)) : x);
  const any = v.length > nan;
  return { shape, min: round(any ? min : NaN), max: round(any ? max : NaN), mean: round(finite ? sum / finite : NaN), nan, inf };
}

export function diffFloats(shape: number[], va: ArrayLike<number>, vb: ArrayLike<number>, tol: FloatTolerance): FloatDiff {
  const fold = new AbsDiffFold();
  let differing = 0;
  for (let i = 0; i < va.length; i++) {
    const x = va[i];
    const y = vb[i];
    fold.add(x, y);
    if (x === y) continue;
    const nanX = Number.isNaN(x);
    const nanY = Number.isNaN(y);
    if (nanX && nanY) continue;
    if (nanX || nanY) {
      differing++;
      continue;
    }
    const d = Math.abs(x - y);
    if (!(d <= tol.abs + tol.rel * Math.max(Math.abs(x), Math.abs(y)))) differing++;
  }
  const a = summarise(shape, va);
  const b = summarise(shape, vb);
  const side = a.nan > 0 && b.nan > 0 ? 'both' : a.nan > 0 ? 'A' : b.nan > 0 ? 'B' : null;
  return { maxAbsDiff: fold.value(), pairs: fold.counts, differing, nanCount: a.nan + b.nan, side, a, b };
}
