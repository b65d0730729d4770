import { bufferToFloat32Channels, SampleFormat } from '@echogarden/wave-codec';
import { WavError } from '../errors.js';
import { walkRiff } from './riff-chunks.js';
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

/**
 * Decodes a RIFF/WAVE file: PCM 8/16/24/32-bit, IEEE float 32/64-bit, plain or EXTENSIBLE, chunks in
 * any order after fmt. Sample conversion is @echogarden/wave-codec's (PCM scaled by 1/2^(bits-1),
 * 8-bit unsigned centred on 128; float64 rounded to float32). Anything malformed throws a WavError
 * naming `file` and the problem.
 */
export function decodeWav(bytes: Uint8Array, file: string): DecodedWav {
  const { chunks, warnings } = walkRiff(bytes, file);
  const fmtIndex = chunks.findIndex((c) => c.id === 'fmt ');
  const dataIndex = chunks.findIndex((c) => c.id === 'data');
  if (fmtIndex < 0) throw new WavError(file, `no fmt chunk (chunks found: ${describe(chunks.map((c) => c.id))})`);
  if (dataIndex < 0) throw new WavError(file, `no data chunk (chunks found: ${describe(chunks.map((c) => c.id))})`);
  if (dataIndex < fmtIndex) throw new WavError(file, 'data chunk comes before the fmt chunk');
  for (const id of ['fmt ', 'data']) {
    if (chunks.filter((c) => c.id === id).length > 1) throw new WavError(file, `more than one "${id.trim()}" chunk`);
  }
  const fmtChunk = chunks[fmtIndex];
  const format = parseFormat(bytes.subarray(fmtChunk.bodyOffset, fmtChunk.bodyOffset + fmtChunk.size), file);

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
  // The codec reads the data through typed-array views, which need the data aligned to the sample width.
  // Every format but float32 is converted into new arrays, so an aligned view of the file's bytes serves
  // and the data is not copied (a copy was a third of a 16-bit import's peak). A float32 file's channel
  // is a view of what it is given, so it gets a fresh ArrayBuffer at offset 0 of its own, as does data
  // that is misaligned (a header not 44 bytes long). Not bytes.slice(): on a Node Buffer that is a view.
  const view = bytes.subarray(data.bodyOffset, data.bodyOffset + dataBytes);
  const floatView = format.encoding !== 'pcm' && format.bitsPerSample === 32;
  const samples = floatView || view.byteOffset % (format.bitsPerSample / 8) !== 0 ? new Uint8Array(view) : view;
  const channels = bufferToFloat32Channels(
    samples,
    format.channels,
    format.bitsPerSample,
    format.encoding === 'pcm' ? SampleFormat.PCM : SampleFormat.Float,
  );
  if (format.encoding !== 'pcm') {
    const nonFinite = channels.reduce((n, channel) => n + countNonFinite(channel), 0);
    if (nonFinite > 0) {
      const why = format.bitsPerSample === 64 ? 'NaN, ±Infinity, or float64 values past float32\'s ±3.4e38' : 'NaN or ±Infinity';
      warnings.push(`${nonFinite} sample(s) are not finite (${why}); metrics over them read NaN or ±Infinity`);
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
