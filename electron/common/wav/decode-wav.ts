import { WavError } from '../errors.js';
import { convertFrames } from './convert-frames.js';
import { readAt, readInto, walkRiff, wavBytesInMemory, type WavBytes } from './riff-chunks.js';
import { parseFormat, type WavSampleFormat } from './wav-format.js';

export interface DecodedWav {
  sampleRate: number;
  /** One Float32Array per channel, in [-1, 1) for PCM (float files keep their values). */
  channels: Float32Array[];
  format: WavSampleFormat;
  /** True when the fmt chunk was WAVE_FORMAT_EXTENSIBLE. */
  extensible: boolean;
  /** Every chunk id in file order, including the skipped ones (LIST, fact, ...). */
  chunkIds: string[];
  /** Tolerated oddities (streaming placeholder sizes, trailing bytes), for the report. */
  warnings: string[];
}

/** Bytes of the data chunk converted at a time: whole frames, about 1 MiB. */
const BLOCK_BYTES = 1 << 20;
/** The most of a fmt chunk the format needs (WAVE_FORMAT_EXTENSIBLE's 40 bytes); the rest is not read. */
const FMT_BYTES_READ = 64;

/**
 * Decodes a RIFF/WAVE file: PCM 8/16/24/32-bit, IEEE float 32/64-bit, plain or EXTENSIBLE, chunks in
 * any order after fmt. Sample conversion is @echogarden/wave-codec's (convert-frames.ts). Anything
 * malformed throws a WavError naming `file` and the problem.
 */
export function decodeWav(bytes: Uint8Array, file: string): DecodedWav {
  return decodeWavFrom(wavBytesInMemory(bytes), file);
}

/**
 * decodeWav over bytes read as they are needed: the chunk headers, the fmt chunk, then the data chunk a
 * block of whole frames (about `blockBytes`) at a time straight into the channels, so a file read this
 * way is never held whole.
 */
export function decodeWavFrom(source: WavBytes, file: string, blockBytes = BLOCK_BYTES): DecodedWav {
  const { chunks, warnings } = walkRiff(source, file);
  const fmtIndex = chunks.findIndex((c) => c.id === 'fmt ');
  const dataIndex = chunks.findIndex((c) => c.id === 'data');
  if (fmtIndex < 0) throw new WavError(file, `no fmt chunk (chunks found: ${describe(chunks.map((c) => c.id))})`);
  if (dataIndex < 0) throw new WavError(file, `no data chunk (chunks found: ${describe(chunks.map((c) => c.id))})`);
  if (dataIndex < fmtIndex) throw new WavError(file, 'data chunk comes before the fmt chunk');
  for (const id of ['fmt ', 'data']) {
    if (chunks.filter((c) => c.id === id).length > 1) throw new WavError(file, `more than one "${id.trim()}" chunk`);
  }
  const fmtChunk = chunks[fmtIndex];
  const format = parseFormat(readAt(source, fmtChunk.bodyOffset, Math.min(fmtChunk.size, FMT_BYTES_READ), file), file);

  const data = chunks[dataIndex];
  let dataBytes = data.size;
  if (dataBytes === 0) throw new WavError(file, 'data chunk is empty (0 samples)');
  if (dataBytes % format.blockAlign !== 0) {
    if (data.size === data.declaredSize) {
      throw new WavError(
        file,
        `data size ${dataBytes} bytes is not a multiple of the block align ${format.blockAlign} (${format.channels} channel(s) × ${format.bitsPerSample / 8} bytes)`,
      );
    }
    const kept = dataBytes - (dataBytes % format.blockAlign);
    warnings.push(`streamed data: ${dataBytes - kept} bytes of an incomplete last frame dropped`);
    dataBytes = kept;
    if (dataBytes === 0) throw new WavError(file, 'data chunk holds less than one sample frame');
  }
  const frames = dataBytes / format.blockAlign;
  const channels = Array.from({ length: format.channels }, () => new Float32Array(frames));
  // One buffer of its own (offset 0, so aligned for every sample width) is refilled for every block.
  const framesPerBlock = Math.max(1, Math.floor(blockBytes / format.blockAlign));
  const block = new Uint8Array(Math.min(frames, framesPerBlock) * format.blockAlign);
  for (let frame = 0; frame < frames; frame += framesPerBlock) {
    const count = Math.min(framesPerBlock, frames - frame);
    const bytes = readInto(source, data.bodyOffset + frame * format.blockAlign, block.subarray(0, count * format.blockAlign), file);
    convertFrames(bytes, format, channels, frame);
  }
  if (format.encoding !== 'pcm') {
    const nonFinite = channels.reduce((n, channel) => n + countNonFinite(channel), 0);
    if (nonFinite > 0) {
      const why = format.bitsPerSample === 64 ? 'NaN, ±Infinity, or float64 values past float32\'s ±3.4e38' : 'NaN or ±Infinity';
      warnings.push(`${nonFinite} sample(s) are not finite (${why}); the audio is not compared (a metric they spoil says "not measurable")`);
    }
  }
  return {
    sampleRate: format.sampleRate,
    channels,
    format: format.sampleFormat,
    extensible: format.extensible,
    chunkIds: chunks.map((c) => c.id),
    warnings,
  };
}

function describe(ids: string[]): string {
  return ids.length === 0 ? 'none' : ids.map((id) => `"${id}"`).join(', ');
}

function countNonFinite(channel: Float32Array): number {
  let n = 0;
  for (let i = 0; i < channel.length; i++) if (!Number.isFinite(channel[i])) n++;
  return n;
}
