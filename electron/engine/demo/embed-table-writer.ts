import { toHalfArray } from '../numeric/float16.js';

/** The tensor name the demo builder gives a safetensors embedding table. */
export const TABLE_TENSOR = 'embed_tokens.weight';

/**
 * An embedding table [rows, width] as the bytes of a file bundle.json's embed.table reads: raw
 * little-endian values, or a safetensors file holding one tensor (an 8-byte little-endian header
 * length, the JSON header padded with spaces to a multiple of 8, then the data).
 */
export function embedTableBytes(values: Float32Array, rows: number, width: number, format: 'raw' | 'safetensors', dtype: 'float32' | 'float16'): Uint8Array {
  const raw = littleEndian(values, dtype);
  if (format === 'raw') return raw;
  const entry = { dtype: dtype === 'float16' ? 'F16' : 'F32', shape: [rows, width], data_offsets: [0, raw.length] };
  let header = JSON.stringify({ [TABLE_TENSOR]: entry });
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const out = new Uint8Array(8 + header.length + raw.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(header.length), true);
  out.set(new TextEncoder().encode(header), 8);
  out.set(raw, 8 + header.length);
  return out;
}

function littleEndian(values: Float32Array, dtype: 'float32' | 'float16'): Uint8Array {
  const size = dtype === 'float16' ? 2 : 4;
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  if (dtype === 'float16') toHalfArray(values).forEach((bits, i) => view.setUint16(2 * i, bits, true));
  else values.forEach((v, i) => view.setFloat32(4 * i, v, true));
  return out;
}
