import { diffFloats, type FloatDiff, type FloatTolerance } from '../../common/forensics/float-diff.js';
import { valuesOf, type TensorCopy } from './tensor-copy.js';

/** The ONNX drill-down's tolerance: the common element rule's (float-diff.ts). */
export type DrillTolerance = FloatTolerance;
export type TensorDiff = FloatDiff;

/**
 * Element by element: |a − b| ≤ abs + rel·max(|a|, |b|) matches; equal infinities match; NaN never
 * matches a number. null when the shapes differ (the tensors are not comparable). The rule itself is
 * common/forensics/float-diff.ts, shared with the module drill-down of foreign traces.
 */
export function diffTensors(a: TensorCopy, b: TensorCopy, tol: DrillTolerance): TensorDiff | null {
  if (a.dims.length !== b.dims.length || a.dims.some((d, i) => d !== b.dims[i])) return null;
  return diffFloats(a.dims, valuesOf(a), valuesOf(b), tol);
}

/** A finding: something beyond tolerance, or a NaN on either side. */
export const isFinding = (d: TensorDiff): boolean => d.differing > 0 || d.nanCount > 0;
