/** Test helpers that build RIFF/WAVE bytes by hand, so tests control every field. */

export type Chunk = [id: string, body: Uint8Array];

export function u16(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >>> 8) & 0xff]);
}

export function u32(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** A chunk with its true size and, when odd, the RIFF pad byte. */
export function chunk(id: string, body: Uint8Array): Uint8Array {
  return concat(ascii(id), u32(body.length), body, body.length % 2 ? new Uint8Array(1) : new Uint8Array(0));
}

export function riff(chunks: Chunk[]): Uint8Array {
  const body = concat(ascii('WAVE'), ...chunks.map(([id, b]) => chunk(id, b)));
  return concat(ascii('RIFF'), u32(body.length), body);
}

export interface FmtFields {
  tag?: number;
  channels?: number;
  sampleRate?: number;
  bits?: number;
  blockAlign?: number;
}

/** A 16-byte fmt body; blockAlign and byteRate derived unless given. */
export function fmtBody({ tag = 1, channels = 1, sampleRate = 24000, bits = 16, blockAlign }: FmtFields = {}): Uint8Array {
  const align = blockAlign ?? (channels * bits) / 8;
  return concat(u16(tag), u16(channels), u32(sampleRate), u32(sampleRate * align), u16(align), u16(bits));
}

/** A 40-byte WAVE_FORMAT_EXTENSIBLE fmt body with the KSDATAFORMAT_SUBTYPE GUID of `subTag`. */
export function extensibleFmtBody(subTag: number, channels: number, sampleRate: number, bits: number, validBits = bits): Uint8Array {
  const align = (channels * bits) / 8;
  const guidTail = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
  return concat(
    u16(0xfffe), u16(channels), u32(sampleRate), u32(sampleRate * align), u16(align), u16(bits),
    u16(22), u16(validBits), u32(channels === 2 ? 3 : 4), u16(subTag), new Uint8Array(guidTail),
  );
}

/** Little-endian int16 samples as bytes. */
export function int16Bytes(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setInt16(i * 2, v, true));
  return out;
}
