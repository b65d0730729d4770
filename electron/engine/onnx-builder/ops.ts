import { GraphBuilder, type DType } from './graph-builder.js';
import { toHalfArray } from '../numeric/float16.js';

/**
 * Common ops over a GraphBuilder in one float type (`float32` or `float16`): weights are given in
 * float32 and stored in the graph's float type, constants are created once per name.
 */
export class Ops {
  /** Constants are shared by every Ops over the same graph, so two float types never clash. */
  private static readonly shared = new WeakMap<GraphBuilder, Map<string, string>>();
  private readonly consts: Map<string, string>;

  constructor(
    readonly g: GraphBuilder,
    readonly float: 'float32' | 'float16',
    /** Makes the float32 values of a weight from its full name (a fixed-seed generator). */
    private readonly values: (fullName: string, count: number, std: number, mean: number) => Float32Array,
  ) {
    const hit = Ops.shared.get(g);
    this.consts = hit ?? new Map();
    if (!hit) Ops.shared.set(g, this.consts);
  }

  /** A weight named `scope.name`, values from the generator (uniform, given std, plus `mean`). */
  param(name: string, dims: number[], std: number, mean = 0): string {
    const count = dims.reduce((a, b) => a * b, 1);
    return this.weight(name, dims, this.values(this.g.fullName(name), count, std, mean));
  }

  /** A weight initializer in the graph's float type. */
  weight(name: string, dims: number[], values: Float32Array): string {
    const data = this.float === 'float16' ? toHalfArray(values) : values;
    return this.g.init(name, { dtype: this.float, dims, data });
  }

  /** A shared constant (created once at graph scope, named `const.<key>`). */
  constant(key: string, dtype: DType, dims: number[], data: number[]): string {
    const name = `const.${key}`;
    const hit = this.consts.get(name);
    if (hit) return hit;
    const stored = dtype === 'float16' ? toHalfArray(data) : data;
    const full = this.g.atRoot(() => this.g.init(name, { dtype, dims, data: stored }));
    this.consts.set(name, full);
    return full;
  }

  floatScalar(value: number): string {
    return this.constant(`${this.float}.${value}`, this.float, [], [value]);
  }

  ints(values: number[]): string {
    return this.constant(`i64.${values.join('_')}`, 'int64', [values.length], values);
  }

  intScalar(value: number): string {
    return this.constant(`i64s.${value}`, 'int64', [], [value]);
  }

  op(op: string, inputs: string[], attrs?: Record<string, number | string | number[]>, name?: string): string {
    return this.g.node(op, inputs, { attrs, name });
  }

  matmul(x: string, w: string): string {
    return this.op('MatMul', [x, w]);
  }

  reshape(x: string, shape: number[]): string {
    return this.op('Reshape', [x, this.ints(shape)]);
  }

  transpose(x: string, perm: number[]): string {
    return this.op('Transpose', [x], { perm });
  }

  slice(x: string, starts: number[], ends: number[], axes: number[]): string {
    return this.op('Slice', [x, this.ints(starts), this.ints(ends), this.ints(axes)]);
  }

  /** RMSNorm over the last axis: x / sqrt(mean(x²) + eps) · w. */
  rmsNorm(x: string, w: string, eps: number): string {
    return this.g.within('norm', () => {
      const ms = this.op('ReduceMean', [this.op('Mul', [x, x])], { axes: [-1], keepdims: 1 });
      const inv = this.op('Reciprocal', [this.op('Sqrt', [this.op('Add', [ms, this.floatScalar(eps)])])]);
      return this.op('Mul', [this.op('Mul', [x, inv]), w]);
    });
  }

  silu(x: string): string {
    return this.op('Mul', [x, this.op('Sigmoid', [x])]);
  }

  cast(x: string, to: DType): string {
    const codes: Record<DType, number> = { float32: 1, float16: 10, float64: 11, int64: 7, bool: 9 };
    return this.op('Cast', [x], { to: codes[to] });
  }
}
