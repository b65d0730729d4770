/**
 * Builds safetensors bytes by the format's definition (an 8-byte little-endian header length, the JSON
 * header, the raw little-endian data), independently of the reader under test. `header` replaces the
 * generated header JSON to make malformed files.
 */
export interface SidecarTensor {
  key: string;
  shape: number[];
  values: number[];
}

export function sidecarBytes(tensors: SidecarTensor[], options: { schema?: string; header?: string; length?: bigint } = {}): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { schema: options.schema ?? 'tts-parity-modules/1' } };
  let offset = 0;
  for (const t of tensors) {
    header[t.key] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * t.values.length] };
    offset += 4 * t.values.length;
  }
  const json = new TextEncoder().encode(options.header ?? JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, options.length ?? BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of tensors) {
    for (const v of t.values) {
      view.setFloat32(at, v, true);
      at += 4;
    }
  }
  return out;
}
