import { fromHalfArray } from '../numeric/float16.js';
import { f16Tensor, f32Tensor, f64Tensor, i64Tensor, type OrtTensor } from '../ort-session.js';

export type TensorData = Float32Array | Uint16Array | Float64Array | BigInt64Array | Int32Array | Uint8Array;

/** A detached copy of an ORT tensor: ORT's type name, dims and a private copy of the data. */
export interface TensorCopy {
  type: string;
  dims: number[];
  data: TensorData;
}

export function copyTensor(t: OrtTensor): TensorCopy {
  const data = t.data as TensorData;
  return { type: t.type, dims: [...t.dims], data: data.slice() as TensorData };
}

/** Back into an ORT tensor, to feed a session (the types the engine feeds: float32/16/64, int64). */
export function toOrtTensor(name: string, c: TensorCopy): OrtTensor {
  const data = c.data.slice();
  switch (c.type) {
    case 'float32':
      return f32Tensor(data as Float32Array, c.dims);
    case 'float16':
      return f16Tensor(data as Uint16Array, c.dims);
    case 'float64':
      return f64Tensor(data as Float64Array, c.dims);
    case 'int64':
      return i64Tensor(data as BigInt64Array, c.dims);
    default:
      throw new Error(`drill-down: input "${name}" has type ${c.type}; the drill can re-feed float32, float16, float64 and int64 tensors`);
  }
}

/** The values as float64 numbers (float16 bits decoded, int64 and bool converted), for comparison. */
export function valuesOf(c: TensorCopy): Float64Array {
  if (c.type === 'float16') return Float64Array.from(fromHalfArray(c.data as Uint16Array));
  if (c.data instanceof BigInt64Array) return Float64Array.from(c.data, (v) => Number(v));
  return Float64Array.from(c.data as ArrayLike<number>);
}
