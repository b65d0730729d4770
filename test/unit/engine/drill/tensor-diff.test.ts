import { describe, expect, it } from 'vitest';
import { toHalfArray } from '../../../../electron/engine/numeric/float16.js';
import type { TensorCopy } from '../../../../electron/engine/drill/tensor-copy.js';
import { diffTensors, isFinding } from '../../../../electron/engine/drill/tensor-diff.js';

const f32 = (values: number[], dims = [values.length]): TensorCopy => ({ type: 'float32', dims, data: Float32Array.from(values) });

describe('diffTensors (element rule |a − b| ≤ abs + rel·max(|a|, |b|))', () => {
  it('equal tensors: no finding, max |Δ| 0', () => {
    const d = diffTensors(f32([1, 2, 3]), f32([1, 2, 3]), { abs: 0, rel: 0 })!;
    expect(d).toMatchObject({ maxAbsDiff: 0, differing: 0, nanCount: 0, side: null });
    expect(isFinding(d)).toBe(false);
  });

  it('counts elements beyond abs; max |Δ| is the largest difference (0.5 = |2 − 2.5|, exact in binary)', () => {
    const d = diffTensors(f32([1, 2, 3]), f32([1.25, 2.5, 3]), { abs: 0.3, rel: 0 })!;
    expect(d.maxAbsDiff).toBe(0.5);
    expect(d.differing).toBe(1); // 0.25 ≤ 0.3 passes, 0.5 does not
    expect(isFinding(d)).toBe(true);
  });

  it('rel scales with the larger magnitude: |100 − 101| = 1 ≤ 0 + 0.01·101', () => {
    expect(diffTensors(f32([100]), f32([101]), { abs: 0, rel: 0.01 })!.differing).toBe(0);
    expect(diffTensors(f32([100]), f32([102]), { abs: 0, rel: 0.01 })!.differing).toBe(1);
  });

  it('a NaN on one side is a finding with max |Δ| NaN and names the side; NaN on both sides still a finding (holds a NaN)', () => {
    const one = diffTensors(f32([1, 2]), f32([1, NaN]), { abs: 1, rel: 0 })!;
    expect(one).toMatchObject({ differing: 1, nanCount: 1, side: 'B' });
    expect(one.maxAbsDiff).toBeNaN();
    const both = diffTensors(f32([NaN, 2]), f32([NaN, 2]), { abs: 0, rel: 0 })!;
    expect(both).toMatchObject({ differing: 0, nanCount: 2, side: 'both', maxAbsDiff: 0 });
    expect(isFinding(both)).toBe(true);
  });

  it('equal infinities match (masked attention scores are -Inf on both sides); Inf against a number differs', () => {
    expect(isFinding(diffTensors(f32([-Infinity, 1]), f32([-Infinity, 1]), { abs: 0, rel: 0 })!)).toBe(false);
    const d = diffTensors(f32([Infinity, 2]), f32([1, 2]), { abs: 1e3, rel: 0 })!;
    expect(d.differing).toBe(1);
    expect(d.maxAbsDiff).toBe(Infinity);
    // With no finite pair beside it, nothing was measured: the count says it differs, |Δ| is NaN.
    const alone = diffTensors(f32([Infinity]), f32([1]), { abs: 1e3, rel: 0 })!;
    expect(alone).toMatchObject({ differing: 1, pairs: { finite: 0, nonFinite: 1 } });
    expect(alone.maxAbsDiff).toBeNaN();
  });

  it('±Inf or NaN on both sides everywhere: nothing finite was compared, so max |Δ| is NaN, not 0 (pairs say why)', () => {
    const inf = diffTensors(f32([Infinity, -Infinity]), f32([Infinity, -Infinity]), { abs: 0, rel: 0 })!;
    expect(inf).toMatchObject({ differing: 0, nanCount: 0, pairs: { finite: 0, nonFinite: 2 } });
    expect(inf.maxAbsDiff).toBeNaN();
    expect(isFinding(inf)).toBe(false);
    const nan = diffTensors(f32([NaN, NaN]), f32([NaN, NaN]), { abs: 0, rel: 0 })!;
    expect(nan).toMatchObject({ nanCount: 4, pairs: { finite: 0, nonFinite: 2 } });
    expect(nan.maxAbsDiff).toBeNaN();
    // One finite pair is a measurement: its 0 stands.
    expect(diffTensors(f32([Infinity, 1]), f32([Infinity, 1]), { abs: 0, rel: 0 })).toMatchObject({ maxAbsDiff: 0, pairs: { finite: 1, nonFinite: 1 } });
  });

  it('different shapes are not comparable (null), even with the same element count', () => {
    expect(diffTensors(f32([1, 2, 3, 4], [2, 2]), f32([1, 2, 3, 4], [4]), { abs: 0, rel: 0 })).toBeNull();
  });

  it('float16 bits are decoded and int64 values converted before comparing', () => {
    const half: TensorCopy = { type: 'float16', dims: [2], data: toHalfArray([1, 0.5]) };
    expect(diffTensors(half, f32([1, 0.5]), { abs: 0, rel: 0 })!.maxAbsDiff).toBe(0);
    const a: TensorCopy = { type: 'int64', dims: [2], data: BigInt64Array.of(3n, 4n) };
    const b: TensorCopy = { type: 'int64', dims: [2], data: BigInt64Array.of(3n, 7n) };
    expect(diffTensors(a, b, { abs: 0, rel: 0 })).toMatchObject({ maxAbsDiff: 3, differing: 1 });
  });

  it('summaries give shape, min, max, mean of finite values and NaN/Inf counts per side', () => {
    const d = diffTensors(f32([1, 3, NaN, -Infinity]), f32([1, 3, 5, 7]), { abs: 0, rel: 0 })!;
    expect(d.a).toEqual({ shape: [4], min: -Infinity, max: 3, mean: 2, nan: 1, inf: 1 });
    expect(d.b).toEqual({ shape: [4], min: 1, max: 7, mean: 4, nan: 0, inf: 0 });
  });
});
