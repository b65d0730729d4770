import type { WavFormat } from './wav-format.js';

/**
 * Converts whole sample frames of a WAV's data chunk (`block`, starting on a frame, its bytes at an offset
 * aligned to the sample width) into `channels` from frame `at` on, the way @echogarden/wave-codec's
 * bufferToFloat32Channels converts a whole file: PCM scaled by 1/2^(bits-1), 8-bit unsigned centred on
 * 128, float64 rounded to float32, float32 copied; each value computed in float64 and rounded once on
 * store, so the samples are the library's bit for bit. Little-endian hosts only, as the typed-array views
 * read the file's little-endian samples directly (every platform Node and Electron ship for is).
 */
export function convertFrames(block: Uint8Array, format: WavFormat, channels: Float32Array[], at: number): void {
  const { buffer, byteOffset, length } = block;
  switch (format.sampleFormat) {
    case 'pcm8':
      return spread(block, channels, at, -128, 1 / 128);
    case 'pcm16':
      return spread(new Int16Array(buffer, byteOffset, length / 2), channels, at, 0, 1 / 32768);
    case 'pcm24':
      return spreadInt24(block, channels, at);
    case 'pcm32':
      return spread(new Int32Array(buffer, byteOffset, length / 4), channels, at, 0, 1 / 2147483648);
    case 'float32':
      return copyFloats(new Float32Array(buffer, byteOffset, length / 4), channels, at);
    case 'float64':
      return copyFloats(new Float64Array(buffer, byteOffset, length / 8), channels, at);
  }
}

/** Interleaved integers into channels: (value + offset) × scale. */
function spread(values: Uint8Array | Int16Array | Int32Array, channels: Float32Array[], at: number, offset: number, scale: number): void {
  const n = channels.length;
  for (let c = 0; c < n; c++) {
    const out = channels[c];
    for (let i = c, f = at; i < values.length; i += n, f++) out[f] = (values[i] + offset) * scale;
  }
}

function spreadInt24(bytes: Uint8Array, channels: Float32Array[], at: number): void {
  const n = channels.length;
  const stride = 3 * n;
  for (let c = 0; c < n; c++) {
    const out = channels[c];
    for (let i = 3 * c, f = at; i < bytes.length; i += stride, f++) {
      out[f] = (((bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16)) << 8) >> 8) * (1 / 8388608);
    }
  }
}

/** Interleaved floats into channels; one float32 channel is copied as bytes, keeping every NaN's bits as the library's view did. */
function copyFloats(values: Float32Array | Float64Array, channels: Float32Array[], at: number): void {
  const n = channels.length;
  if (n === 1 && values instanceof Float32Array) {
    channels[0].set(values, at);
    return;
  }
  for (let c = 0; c < n; c++) {
    const out = channels[c];
    for (let i = c, f = at; i < values.length; i += n, f++) out[f] = values[i];
  }
}
