import { float32ChannelsToBuffer, SampleFormat } from '@echogarden/wave-codec';

export type WavWriteFormat = 'pcm16' | 'float32';

/**
 * Writes a canonical 44-byte-header RIFF/WAVE file (PCM tag 1 or IEEE float tag 3, no extra chunks).
 * pcm16: each sample x becomes round(x·32768) clipped to [−32768, 32767] (the codec's conversion), so
 * decoding gives back x within 1/65536 for x in [−1, 1); values outside are clipped.
 * float32: the samples' bytes, bit-exact. Same input, same bytes.
 */
export function encodeWav(channels: Float32Array[], sampleRate: number, format: WavWriteFormat): Uint8Array {
  if (channels.length === 0) throw new RangeError('encodeWav: at least one channel is needed');
  const length = channels[0].length;
  if (channels.some((c) => c.length !== length)) throw new RangeError('encodeWav: channels differ in length');
  const bits = format === 'pcm16' ? 16 : 32;
  const data = float32ChannelsToBuffer(channels, bits, format === 'pcm16' ? SampleFormat.PCM : SampleFormat.Float);
  const blockAlign = channels.length * (bits / 8);
  const out = new Uint8Array(44 + data.length + (data.length % 2));
  const view = new DataView(out.buffer);
  writeId(out, 0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  writeId(out, 8, 'WAVE');
  writeId(out, 12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, format === 'pcm16' ? 1 : 3, true);
  view.setUint16(22, channels.length, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  writeId(out, 36, 'data');
  view.setUint32(40, data.length, true);
  out.set(data, 44);
  return out;
}

function writeId(out: Uint8Array, offset: number, id: string): void {
  for (let i = 0; i < 4; i++) out[offset + i] = id.charCodeAt(i);
}
