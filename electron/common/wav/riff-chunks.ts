import { WavError } from '../errors.js';

/** One chunk inside the RIFF/WAVE container: its id and where its body lies in the file. */
export interface RiffChunk {
  id: string;
  /** Byte offset of the chunk body (after the 8-byte id + size header). */
  bodyOffset: number;
  /** The size the chunk header declares. */
  declaredSize: number;
  /** Bytes of the body actually present (equals declaredSize except for a streaming placeholder). */
  size: number;
}

export interface RiffWalk {
  chunks: RiffChunk[];
  warnings: string[];
}

/**
 * Sizes that streaming writers leave in the header when they cannot seek back: 0xFFFFFFFF (ffmpeg to
 * a pipe) and 0x7FFFF000 (sox to a pipe). A data chunk with one of these runs to the end of the file.
 */
export const STREAMING_SIZES: readonly number[] = [0xffffffff, 0x7ffff000];

const HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

/**
 * A WAV's bytes as the reader takes them: all in memory (wavBytesInMemory), or a file read a piece at
 * a time (engine/fs/decode-wav-file.ts), so a file's data chunk never has to be held whole.
 */
export interface WavBytes {
  readonly size: number;
  /** Copies the bytes from `offset` into `into`; returns how many were copied (fewer only past the end). */
  read(offset: number, into: Uint8Array): number;
}

export function wavBytesInMemory(bytes: Uint8Array): WavBytes {
  return {
    size: bytes.length,
    read(offset, into) {
      const piece = bytes.subarray(offset, offset + into.length);
      into.set(piece);
      return piece.length;
    },
  };
}

/**
 * Walks the chunks of a RIFF/WAVE file, reading only their headers. Every size is checked against the
 * bytes actually present, so a lying size is reported, never trusted for an allocation; each step advances
 * by at least 8 bytes, so the walk ends. Odd-sized chunks are followed by a pad byte (RIFF rule), which
 * may be missing at EOF.
 */
export function walkRiff(source: WavBytes, file: string): RiffWalk {
  const length = source.size;
  if (length === 0) throw new WavError(file, 'empty file (0 bytes), expected a RIFF/WAVE header');
  if (length < HEADER_BYTES) {
    throw new WavError(file, `truncated header: the file has ${length} bytes, a WAV header needs at least 12`);
  }
  const header = readAt(source, 0, HEADER_BYTES, file);
  const riff = fourcc(header, 0);
  if (riff === 'RIFX') throw new WavError(file, 'big-endian RIFX WAV files are not supported');
  if (riff === 'RF64' || riff === 'BW64') throw new WavError(file, `${riff} (64-bit WAV) files are not supported`);
  if (riff !== 'RIFF') throw new WavError(file, `not a WAV file: starts with ${printable(header, 0)}, expected "RIFF"`);
  const form = fourcc(header, 8);
  if (form !== 'WAVE') throw new WavError(file, `not a WAV file: RIFF form type is ${printable(header, 8)}, expected "WAVE"`);

  const warnings: string[] = [];
  const riffSize = readU32(header, 4);
  let end = length;
  // A streaming writer leaves a placeholder RIFF size too (sox: the data placeholder + header bytes),
  // so a RIFF size past the end is accepted only when the data chunk turns out to be streamed.
  const riffOverrun = riffSize + 8 > length;
  if (riffOverrun) {
    warnings.push(`RIFF size ${riffSize} is past the end of the file (streamed); chunks read to the end of the file`);
  } else if (riffSize < 4) {
    throw new WavError(file, `declared RIFF size ${riffSize} bytes is too small to hold the "WAVE" form type`);
  } else {
    end = riffSize + 8;
    if (end < length) warnings.push(`${length - end} bytes after the RIFF chunk ignored`);
  }

  const chunks: RiffChunk[] = [];
  let offset = HEADER_BYTES;
  while (offset < end) {
    const remaining = end - offset;
    if (remaining < CHUNK_HEADER_BYTES) {
      warnings.push(`${remaining} trailing bytes at offset ${offset} ignored (too short for a chunk header)`);
      break;
    }
    const chunkHeader = readAt(source, offset, CHUNK_HEADER_BYTES, file);
    const id = fourcc(chunkHeader, 0);
    if (!/^[\x20-\x7e]{4}$/.test(id)) {
      if (hasAudio(chunks)) {
        warnings.push(`${remaining} bytes of non-chunk data at byte ${offset} after the audio ignored`);
        break;
      }
      throw new WavError(file, `invalid chunk id ${printable(chunkHeader, 0)} at byte ${offset}: the chunk sizes before it are wrong or the file is corrupt`);
    }
    const declaredSize = readU32(chunkHeader, 4);
    const bodyOffset = offset + CHUNK_HEADER_BYTES;
    const available = end - bodyOffset;
    let size = declaredSize;
    if (declaredSize > available) {
      if (id === 'data' && STREAMING_SIZES.includes(declaredSize)) {
        size = available;
        warnings.push(`data size is the streaming placeholder 0x${hex(declaredSize)}; read ${available} bytes to the end of the file`);
      } else {
        // Where the RIFF size ends the walk before the file does, that size is the limit: say so.
        const within = end < length ? `in the RIFF chunk (its declared RIFF size ${riffSize} ends it at byte ${end}; the file has ${length} bytes)` : 'in the file';
        throw new WavError(file, `chunk "${id}" at byte ${offset} declares ${declaredSize} bytes but only ${Math.max(0, available)} remain ${within}`);
      }
    }
    chunks.push({ id, bodyOffset, declaredSize, size });
    offset = bodyOffset + size + (size % 2);
  }
  if (riffOverrun && !chunks.some((c) => c.size !== c.declaredSize)) {
    throw new WavError(file, `declared RIFF size ${riffSize} bytes runs past the end of the file (${length - 8} bytes after the RIFF header)`);
  }
  return { chunks, warnings };
}

/** `count` bytes from `offset`, which lie inside the source's size (the walk checked that). */
export function readAt(source: WavBytes, offset: number, count: number, file: string): Uint8Array {
  return readInto(source, offset, new Uint8Array(count), file);
}

/** Fills `into` from `offset`; a file that ends sooner than its size said was cut while it was read. */
export function readInto(source: WavBytes, offset: number, into: Uint8Array, file: string): Uint8Array {
  const got = source.read(offset, into);
  if (got !== into.length) throw new WavError(file, `the file ended at byte ${offset + got}, before the ${source.size} bytes it had when opened (it was cut while being read)`);
  return into;
}

function hasAudio(chunks: RiffChunk[]): boolean {
  return chunks.some((c) => c.id === 'fmt ') && chunks.some((c) => c.id === 'data');
}

export function fourcc(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
}

export function readU16(bytes: Uint8Array, offset: number): number {
  return bytes[offset] | (bytes[offset + 1] << 8);
}

export function readU32(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}

function hex(value: number): string {
  return value.toString(16).toUpperCase().padStart(8, '0');
}

/** Four bytes as a quoted string when printable, else as hex, for error messages. */
function printable(bytes: Uint8Array, offset: number): string {
  const id = fourcc(bytes, offset);
  if (/^[\x20-\x7e]{4}$/.test(id)) return `"${id}"`;
  return `0x${Array.from(bytes.subarray(offset, offset + 4), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
