import onnxProto from 'onnx-proto';
import { fromHalfBits, toHalfBits } from '../numeric/float16.js';

const T = onnxProto.onnx.TensorProto.DataType;
/** Constants up to this many elements are identified by value; larger ones (weights) by name. */
const SMALL = 16;

function values(t: onnxProto.onnx.ITensorProto, count: number): number[] | undefined {
  const raw = t.rawData;
  if (raw && raw.length > 0) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const read: Record<number, [number, (i: number) => number]> = {
      [T.FLOAT]: [4, (i) => view.getFloat32(i * 4, true)],
      [T.FLOAT16]: [2, (i) => fromHalfBits(view.getUint16(i * 2, true))],
      [T.DOUBLE]: [8, (i) => view.getFloat64(i * 8, true)],
      [T.INT64]: [8, (i) => Number(view.getBigInt64(i * 8, true))],
      [T.INT32]: [4, (i) => view.getInt32(i * 4, true)],
      [T.BOOL]: [1, (i) => view.getUint8(i)],
    };
    const r = read[t.dataType ?? 0];
    if (!r || raw.length !== r[0] * count) return undefined;
    return Array.from({ length: count }, (_, i) => r[1](i));
  }
  const typed = [t.floatData, t.doubleData, t.int32Data].find((d) => d && d.length === count);
  if (typed) return Array.from(typed as ArrayLike<number>);
  if (t.int64Data && t.int64Data.length === count) return t.int64Data.map((v) => Number(String(v)));
  return undefined;
}

/**
 * How the drill recognises one initializer in two exports: a small constant by its dims and its values
 * at half precision (so `const.float16.2` of an fp16 export is `const.float32.2` of the fp32 one), a
 * weight by its name.
 */
export function initializerKey(t: onnxProto.onnx.ITensorProto): string {
  const dims = (t.dims ?? []).map((d) => Number(String(d)));
  const count = dims.reduce((a, b) => a * b, 1);
  const v = count <= SMALL ? values(t, count) : undefined;
  // Rounded to half precision, so that an fp16 export's eps (1e-6 → 1.013e-6) is the fp32 one's.
  return v ? `const [${dims.join(',')}] ${v.map((x) => fromHalfBits(toHalfBits(x))).join(',')}` : `weight ${t.name ?? ''}`;
}
