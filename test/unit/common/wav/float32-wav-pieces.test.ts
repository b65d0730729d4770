import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { encodeWav, float32MonoWavPieces } from '../../../../electron/common/wav/encode-wav.js';

const joined = (pieces: Uint8Array[]) => Buffer.concat(pieces);

// The history writes a take's float32 WAV as these pieces instead of encodeWav's one copy; the file must
// be the same bytes encodeWav writes (its own tests check sox and ffmpeg read those).
describe('float32MonoWavPieces', () => {
  it('gives exactly the bytes of encodeWav float32, for a whole array and for a view inside a larger buffer', () => {
    const x = Float32Array.from({ length: 1001 }, (_, i) => Math.sin(i / 3) * 1.3);
    expect(joined(float32MonoWavPieces(x, 24_000))).toEqual(Buffer.from(encodeWav([x], 24_000, 'float32')));
    const inner = x.subarray(3, 700);
    expect(joined(float32MonoWavPieces(inner, 16_000))).toEqual(Buffer.from(encodeWav([inner], 16_000, 'float32')));
    expect(joined(float32MonoWavPieces(new Float32Array(0), 8_000))).toEqual(Buffer.from(encodeWav([new Float32Array(0)], 8_000, 'float32')));
  });

  it('holds the samples by reference, not a copy, and decodes back bit-exactly', () => {
    const x = Float32Array.from({ length: 500 }, (_, i) => Math.cos(i) * 0.7);
    const pieces = float32MonoWavPieces(x, 24_000);
    expect(pieces.at(-1)!.buffer).toBe(x.buffer);
    const decoded = decodeWav(new Uint8Array(joined(pieces)), 'pieces.wav');
    expect(decoded.format).toBe('float32');
    expect(Array.from(decoded.channels[0])).toEqual(Array.from(x));
  });
});
