import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { WavError } from '../../../../electron/common/errors.js';
import { ascii, extensibleFmtBody, fmtBody, int16Bytes, riff } from './wav-bytes.js';
import { goodWav, malformedWavs } from './malformed-wavs.js';

// Expected sample values: int16 v decodes to v / 32768 (the PCM scale of WAVE: full scale = 2^15).
const values = [0, 1, -1, 16384, -16384, 32767, -32768];
const expected = Float32Array.from(values, (v) => v / 32768);

describe('decodeWav: chunk layout', () => {
  it('decodes a canonical 16-bit mono file', () => {
    const wav = decodeWav(riff([['fmt ', fmtBody()], ['data', int16Bytes(values)]]), 'a.wav');
    expect(wav.sampleRate).toBe(24000);
    expect(wav.format).toBe('pcm16');
    expect(wav.channels).toHaveLength(1);
    expect(Array.from(wav.channels[0])).toEqual(Array.from(expected));
    expect(wav.chunkIds).toEqual(['fmt ', 'data']);
    expect(wav.warnings).toEqual([]);
  });

  it('skips LIST, fact and odd-sized chunks (with their pad byte) in any position, keeping their ids', () => {
    // "odd " has a 3-byte body + pad byte, which puts the data body at an offset that is not a multiple of 4.
    const bytes = riff([
      ['LIST', ascii('INFOISFT\x05\x00\x00\x00sox!\x00\x00')],
      ['fmt ', fmtBody()],
      ['fact', new Uint8Array([7, 0, 0, 0])],
      ['odd ', new Uint8Array([1, 2, 3])],
      ['data', int16Bytes(values)],
      ['id3 ', new Uint8Array([9])],
    ]);
    const wav = decodeWav(bytes, 'b.wav');
    expect(wav.chunkIds).toEqual(['LIST', 'fmt ', 'fact', 'odd ', 'data', 'id3 ']);
    expect(Array.from(wav.channels[0])).toEqual(Array.from(expected));
  });

  it('accepts a missing pad byte after an odd-sized last chunk', () => {
    const bytes = riff([['fmt ', fmtBody()], ['data', int16Bytes(values)], ['tail', new Uint8Array([1])]]);
    const cut = bytes.slice(0, bytes.length - 1);
    cut.set([(cut.length - 8) & 0xff, (cut.length - 8) >> 8, 0, 0], 4);
    expect(decodeWav(cut, 'c.wav').chunkIds).toEqual(['fmt ', 'data', 'tail']);
  });

  it('walks thousands of zero-size chunks in one pass (each step advances at least 8 bytes)', () => {
    const filler = Array.from({ length: 5000 }, () => ['junk', new Uint8Array(0)] as [string, Uint8Array]);
    const wav = decodeWav(riff([['fmt ', fmtBody()], ...filler, ['data', int16Bytes(values)]]), 'g.wav');
    expect(wav.chunkIds).toHaveLength(5002);
  });

  it('decodes a data chunk that starts at an odd byte offset of the input buffer', () => {
    const bytes = riff([['fmt ', fmtBody()], ['data', int16Bytes(values)]]);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(Array.from(decodeWav(shifted.subarray(1), 'd.wav').channels[0])).toEqual(Array.from(expected));
  });

  it('decodes a Node Buffer whose float data starts at a misaligned offset (58-byte sox/ffmpeg float header)', () => {
    // Buffer.slice() is a view, not a copy: the decoder must not rely on it to realign the samples.
    const floats = Float32Array.from([0.5, -0.25, 1e-30]);
    const body = new Uint8Array(18);
    new DataView(body.buffer).setUint16(0, 3, true);
    new DataView(body.buffer).setUint16(2, 1, true);
    new DataView(body.buffer).setUint32(4, 24000, true);
    new DataView(body.buffer).setUint32(8, 96000, true);
    new DataView(body.buffer).setUint16(12, 4, true);
    new DataView(body.buffer).setUint16(14, 32, true);
    const fact = Uint8Array.of(3, 0, 0, 0);
    const bytes = Buffer.from(riff([['fmt ', body], ['fact', fact], ['data', new Uint8Array(floats.buffer)]]));
    expect(bytes.indexOf('data') + 8).toBe(58);
    expect(decodeWav(bytes, 'f.wav').channels[0]).toEqual(floats);
  });

  it('decodes a constructed EXTENSIBLE PCM 16-bit stereo file, de-interleaving L and R', () => {
    const wav = decodeWav(riff([['fmt ', extensibleFmtBody(1, 2, 48000, 16)], ['data', int16Bytes([100, -100, 200, -200])]]), 'e.wav');
    expect(wav.extensible).toBe(true);
    expect(wav.format).toBe('pcm16');
    expect(Array.from(wav.channels[0])).toEqual([100 / 32768, 200 / 32768]);
    expect(Array.from(wav.channels[1])).toEqual([-100 / 32768, -200 / 32768]);
  });

  it('reads a data chunk with a streaming placeholder size to the end of the file, with a warning', () => {
    const bytes = riff([['fmt ', fmtBody()], ['data', int16Bytes(values)]]);
    bytes.set([0xff, 0xff, 0xff, 0xff], 4);
    bytes.set([0xff, 0xff, 0xff, 0xff], 40);
    const wav = decodeWav(bytes, 'f.wav');
    expect(Array.from(wav.channels[0])).toEqual(Array.from(expected));
    expect(wav.warnings.join(' ')).toMatch(/streaming placeholder 0xFFFFFFFF/);
  });
});

describe('decodeWav: malformed input', () => {
  it('the base file of the malformed cases is itself valid', () => {
    expect(decodeWav(goodWav, 'good.wav').channels[0]).toHaveLength(100);
  });

  it.each(malformedWavs.map((m) => [m.name, m] as const))('%s -> WavError naming the file and the problem', (_name, m) => {
    let error: unknown;
    try {
      decodeWav(m.bytes, 'dir/bad.wav');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WavError);
    const message = (error as WavError).message;
    expect(message.startsWith('dir/bad.wav: ')).toBe(true);
    expect(message).toMatch(m.problem);
    expect(message).not.toContain('\n');
  });

  it('has at least 20 distinct malformed cases', () => {
    expect(new Set(malformedWavs.map((m) => m.name)).size).toBeGreaterThanOrEqual(20);
  });
});

describe('decodeWav: non-finite float samples', () => {
  it('warns, with the count, when float64 samples overflow float32 or are NaN', () => {
    const samples = new Float64Array([0.5, 1e300, -1e300, NaN, -0.25]);
    const wav = decodeWav(riff([['fmt ', fmtBody({ tag: 3, bits: 64 })], ['data', new Uint8Array(samples.buffer)]]), 'big.wav');
    expect(Array.from(wav.channels[0])).toEqual([0.5, Infinity, -Infinity, NaN, -0.25]);
    expect(wav.warnings).toEqual(["3 sample(s) are not finite (NaN, ±Infinity, or float64 values past float32's ±3.4e38); the audio is not compared (a metric they spoil says \"not measurable\")"]);
  });

  it('says nothing for finite float32 samples', () => {
    const samples = new Float32Array([0.5, -1, 1, 3.5]);
    const wav = decodeWav(riff([['fmt ', fmtBody({ tag: 3, bits: 32 })], ['data', new Uint8Array(samples.buffer)]]), 'ok.wav');
    expect(wav.warnings).toEqual([]);
  });
});
