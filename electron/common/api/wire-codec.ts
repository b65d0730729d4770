import { InputError } from '../errors.js';

/**
 * The binary frame every WebSocket message travels in, so audio crosses without base64 or JSON arrays:
 *
 *   [u32 LE: byte length J of the JSON][J bytes UTF-8 JSON][zero padding to a multiple of 8][blobs...]
 *
 * In the JSON, a typed array is replaced by `{"$bin": [type, byteOffset, length]}` pointing into the
 * blob area (each blob starts 8-byte aligned so Float64Array views need no copy), and a non-finite
 * number by `{"$num": "NaN" | "Infinity" | "-Infinity"}`. A 10-minute float32 pair at 24 kHz is
 * 2 × 57.6 MB of blobs and a few kB of JSON.
 */
const TYPES = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u8: Uint8Array,
  i16: Int16Array,
} as const;
type TypeTag = keyof typeof TYPES;
type AnyTyped = Float32Array | Float64Array | Int32Array | Uint8Array | Int16Array;

function tagOf(value: unknown): TypeTag | undefined {
  for (const [tag, ctor] of Object.entries(TYPES)) if (value instanceof ctor) return tag as TypeTag;
  return undefined;
}

const align8 = (n: number) => (n + 7) & ~7;

export function encodeFrame(value: unknown): Uint8Array {
  const blobs: AnyTyped[] = [];
  let blobBytes = 0;
  const json = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    // JSON.stringify calls toJSON first; typed arrays have none, so `v` is still the array here.
    const tag = tagOf(v);
    if (tag) {
      const arr = v as AnyTyped;
      const ref = { $bin: [tag, blobBytes, arr.length] };
      blobs.push(arr);
      blobBytes = align8(blobBytes + arr.byteLength);
      return ref;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) return { $num: String(v) };
    return v;
  });
  const jsonBytes = new TextEncoder().encode(json ?? 'null');
  const head = align8(4 + jsonBytes.length);
  const out = new Uint8Array(head + blobBytes);
  new DataView(out.buffer).setUint32(0, jsonBytes.length, true);
  out.set(jsonBytes, 4);
  let offset = head;
  for (const arr of blobs) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), offset);
    offset = align8(offset + arr.byteLength);
  }
  return out;
}

export function decodeFrame(frame: Uint8Array): unknown {
  if (frame.byteLength < 4) throw new InputError(`wire frame: ${frame.byteLength} bytes, expected at least 4`);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const jsonLength = view.getUint32(0, true);
  if (4 + jsonLength > frame.byteLength) {
    throw new InputError(`wire frame: JSON length ${jsonLength} exceeds the frame (${frame.byteLength} bytes)`);
  }
  const json = new TextDecoder().decode(frame.subarray(4, 4 + jsonLength));
  const blobStart = align8(4 + jsonLength);
  // Copy the blob area once into an aligned buffer so every typed view is aligned whatever the socket gave us.
  const blobs = frame.slice(blobStart);
  return JSON.parse(json, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if ('$bin' in o) return readBlob(blobs, o.$bin);
      if ('$num' in o && typeof o.$num === 'string') return Number(o.$num);
    }
    return v;
  });
}

function readBlob(blobs: Uint8Array, ref: unknown): AnyTyped {
  if (!Array.isArray(ref) || ref.length !== 3) throw new InputError('wire frame: malformed $bin reference');
  const [tag, offset, length] = ref as [string, number, number];
  const ctor = TYPES[tag as TypeTag];
  if (!ctor) throw new InputError(`wire frame: unknown array type "${tag}" (known: ${Object.keys(TYPES).join(', ')})`);
  const bytes = length * ctor.BYTES_PER_ELEMENT;
  if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + bytes > blobs.byteLength) {
    throw new InputError(`wire frame: $bin [${tag}, ${offset}, ${length}] lies outside the ${blobs.byteLength}-byte blob area`);
  }
  return new ctor(blobs.buffer as ArrayBuffer, blobs.byteOffset + offset, length);
}
