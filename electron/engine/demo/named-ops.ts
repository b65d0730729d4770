import type { Ops } from '../onnx-builder/ops.js';
import { exportBuilder } from './export-names.js';

/**
 * RMSNorm x / sqrt(mean(x²) + eps) · w with its intermediate values under shared names (`square`,
 * `mean_square`, `variance`, `rms`, `normed`, `out` in the caller's scope). eager: Mul(x, x) and
 * x · Reciprocal(rms), the node sequence Ops.rmsNorm builds; graph: Pow(x, 2) and x / rms, the pattern
 * ONNX Runtime's SimplifiedLayerNormFusion matches. Same quantities, so the same names.
 */
export function namedRmsNorm(o: Ops, x: string, w: string, eps: number): string {
  const g = exportBuilder(o.g);
  const n = (name: string): string => g.shared(name);
  if (g.kind === 'eager') {
    const ms = o.op('ReduceMean', [o.op('Mul', [x, x], undefined, n('square'))], { axes: [-1], keepdims: 1 }, n('mean_square'));
    const inv = o.op('Reciprocal', [o.op('Sqrt', [o.op('Add', [ms, o.floatScalar(eps)], undefined, n('variance'))], undefined, n('rms'))]);
    return o.op('Mul', [o.op('Mul', [x, inv], undefined, n('normed')), w], undefined, n('out'));
  }
  const ms = o.op('ReduceMean', [o.op('Pow', [x, o.floatScalar(2)], undefined, n('square'))], { axes: [-1], keepdims: 1 }, n('mean_square'));
  const rms = o.op('Sqrt', [o.op('Add', [ms, o.floatScalar(eps)], undefined, n('variance'))], undefined, n('rms'));
  return o.op('Mul', [o.op('Div', [x, rms], undefined, n('normed')), w], undefined, n('out'));
}

/** silu(x) = x · sigmoid(x), named `sigmoid` and `silu` in the caller's scope. */
export function namedSilu(o: Ops, x: string): string {
  const g = exportBuilder(o.g);
  return o.op('Mul', [x, o.op('Sigmoid', [x], undefined, g.shared('sigmoid'))], undefined, g.shared('silu'));
}
