import { WavError } from '../../common/errors.js';
import { decodeWav, type DecodedWav } from '../../common/wav/decode-wav.js';

/**
 * Bytes of a WAV before its first sample (the `data` chunk's payload), or undefined while the prefix is too
 * short to say: where "first audio" is for a streamed WAV, whose first chunk is the header alone.
 */
export function wavHeaderLength(prefix: Uint8Array): number | undefined {
  let offset = 12;
  while (offset + 8 <= prefix.length) {
    const id = String.fromCharCode(prefix[offset], prefix[offset + 1], prefix[offset + 2], prefix[offset + 3]);
    if (id === 'data') return offset + 8;
    const size = prefix[offset + 4] | (prefix[offset + 5] << 8) | (prefix[offset + 6] << 16) | (prefix[offset + 7] << 24);
    offset += 8 + (size >>> 0) + ((size >>> 0) & 1);
  }
  return undefined;
}

/** `response_format: "pcm"` as OpenAI and vLLM-Omni send it: 16-bit signed little-endian mono. */
export function decodePcm16(bytes: Uint8Array, sampleRate: number, where: string): DecodedWav {
  if (bytes.length % 2 !== 0) throw new WavError(where, `${bytes.length} bytes of 16-bit PCM is not a whole number of samples (cut short?)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(bytes.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true) / 32768;
  return { sampleRate, channels: [samples], format: 'pcm16', extensible: false, chunkIds: [], warnings: [] };
}

/** The received audio decoded by the project's WAV reader (or as raw pcm16), errors naming the endpoint. */
export function decodeSpeechAudio(bytes: Uint8Array, format: 'wav' | 'pcm', rate: number | undefined, where: string): DecodedWav {
  return format === 'pcm' ? decodePcm16(bytes, rate!, where) : decodeWav(bytes, where);
}
