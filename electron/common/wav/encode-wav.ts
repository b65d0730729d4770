import { float32ChannelsToBuffer, SampleFormat } from '@echogarden/wave-codec';

export type WavWriteFormat = 'pcm16' | 'float32';

/**
 * Writes a RIFF/WAVE file. pcm16: the canonical 44-byte header (fmt of 16 bytes, tag 1).
 * float32: IEEE float (tag 3) is a non-PCM format, so per the WAVE spec (Microsoft "Multimedia Standards
 * Update", 1994) its fmt chunk is 18 bytes (cbSize = 0) and a `fact` chunk holds the sample-frame count:
 * the 58-byte header sox and ffmpeg write, read by both without a warning.
 * pcm16: each sample x becomes round(x·32768) clipped to [−32768, 32767] (the codec's conversion), so
 * decoding gives back x within 1/65536 for x in [−1, 1); values outside are clipped.
 * float32: the samples' bytes, bit-exact. Same input, same bytes.
 */
export function encodeWav(channels: Float32Array[], sampleRate: number, format: WavWriteFormat): Uint8Array {
  if (channels.length === 0) throw new RangeError('encodeWav: at least one channel is needed');
  const length = channels[0].length;
  if (channels.some((c) => c.length !== length)) throw new RangeError('encodeWav: channels differ in length');
  const pcm = format === 'pcm16';
  const bits = pcm ? 16 : 32;
  const data = float32ChannelsToBuffer(channels, bits, pcm ? SampleFormat.PCM : SampleFormat.Float);
  const header = wavHeader(format, channels.length, sampleRate, length);
  const out = new Uint8Array(header.length + data.length + (data.length % 2));
  out.set(header, 0);
  out.set(data, header.length);
  return out;
}

/**
 * A float32 mono WAV as two pieces, the header and a view of the samples' own bytes (no copy), which
 * written one after the other give exactly encodeWav([samples], sampleRate, 'float32'). Float32Array
 * bytes are in the machine's order, so a big-endian machine gets encodeWav's single piece instead.
 */
export function float32MonoWavPieces(samples: Float32Array, sampleRate: number): Uint8Array[] {
  if (!LITTLE_ENDIAN) return [encodeWav([samples], sampleRate, 'float32')];
  return [wavHeader('float32', 1, sampleRate, samples.length), new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The RIFF header up to and including the data chunk's size; the data (padded to even) follows. */
function wavHeader(format: WavWriteFormat, channelCount: number, sampleRate: number, frames: number): Uint8Array {
  const pcm = format === 'pcm16';
  const bits = pcm ? 16 : 32;
  const blockAlign = channelCount * (bits / 8);
  const dataBytes = frames * blockAlign;
  const fmtSize = pcm ? 16 : 18;
  const factEnd = 20 + fmtSize + (pcm ? 0 : 12);
  const out = new Uint8Array(factEnd + 8);
  const view = new DataView(out.buffer);
  writeId(out, 0, 'RIFF');
  view.setUint32(4, out.length + dataBytes + (dataBytes % 2) - 8, true);
  writeId(out, 8, 'WAVE');
  writeId(out, 12, 'fmt ');
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, pcm ? 1 : 3, true);
  view.setUint16(22, channelCount, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  if (!pcm) {
    view.setUint16(36, 0, true); // cbSize: no extension
    writeId(out, 38, 'fact');
    view.setUint32(42, 4, true);
    view.setUint32(46, frames, true);
  }
  writeId(out, factEnd, 'data');
  view.setUint32(factEnd + 4, dataBytes, true);
  return out;
}

function writeId(out: Uint8Array, offset: number, id: string): void {
  for (let i = 0; i < 4; i++) out[offset + i] = id.charCodeAt(i);
}
