import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferToFloat32Channels, decodeWaveToFloat32Channels, SampleFormat, type BitDepth } from '@echogarden/wave-codec';
import { afterAll, describe, expect, it } from 'vitest';
import { WavError } from '../../../../electron/common/errors.js';
import { decodeWav, decodeWavFrom } from '../../../../electron/common/wav/decode-wav.js';
import { wavBytesInMemory } from '../../../../electron/common/wav/riff-chunks.js';
import { decodeWavFile } from '../../../../electron/engine/fs/decode-wav-file.js';
import { ascii, chunk, concat, fmtBody, riff, u32 } from '../../common/wav/wav-bytes.js';
import { goodWav, malformedWavs } from '../../common/wav/malformed-wavs.js';

// The reference is @echogarden/wave-codec, the decoder decodeWav used before it read block by block:
// its whole-file decoder for files written by sox and ffmpeg, its buffer converter for files built here.
// Samples are compared as bytes, so "same" means bit for bit (NaN payloads and -0 included).
const dir = mkdtempSync(join(tmpdir(), 'wav-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bits = (channels: Float32Array[]) => channels.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('hex'));
const write = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

const soxFormats = [
  { format: 'pcm8', args: ['-b', '8', '-e', 'unsigned-integer'] },
  { format: 'pcm16', args: ['-b', '16', '-e', 'signed-integer'] },
  { format: 'pcm24', args: ['-b', '24', '-e', 'signed-integer'] },
  { format: 'pcm32', args: ['-b', '32', '-e', 'signed-integer'] },
  { format: 'float32', args: ['-b', '32', '-e', 'floating-point'] },
  { format: 'float64', args: ['-b', '64', '-e', 'floating-point'] },
] as const;

describe('decodeWavFile: every format, as the library decodes the whole file', () => {
  for (const channels of [1, 2, 3]) {
    it.each(soxFormats)(`sox $format, ${channels} channel(s), whole blocks and one of 1001 bytes`, ({ format, args }) => {
      const path = join(dir, `sox-${format}-${channels}.wav`);
      // 0.3 s of white noise (7,200 frames of varied bit patterns), no dither.
      execFileSync('sox', ['-D', '-R', '-r', '24000', '-c', String(channels), '-n', ...args, path, 'synth', '0.3', 'whitenoise', 'vol', '0.5'], { stdio: 'pipe' });
      const bytes = new Uint8Array(readFileSync(path));
      const reference = bits(decodeWaveToFloat32Channels(bytes).audioChannels);
      const wav = decodeWavFile(path);
      expect(wav.format).toBe(format);
      expect(bits(wav.channels)).toEqual(reference);
      // Blocks of 1001 bytes hold whole frames only (1001 is a multiple of no frame size but 1 and 7), so
      // every block boundary of a multi-byte format falls where a smaller read would split a frame.
      expect(bits(decodeWavFrom(wavBytesInMemory(bytes), path, 1001).channels)).toEqual(reference);
    });
  }

  it.each(['pcm_u8', 'pcm_s16le', 'pcm_s24le', 'pcm_s32le', 'pcm_f32le', 'pcm_f64le'])('ffmpeg %s stereo with its LIST chunk', (codec) => {
    const path = join(dir, `ffmpeg-${codec}.wav`);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.2:sample_rate=22050', '-ac', '2', '-c:a', codec, path]);
    const bytes = new Uint8Array(readFileSync(path));
    const wav = decodeWavFile(path);
    expect(wav.chunkIds).toContain('LIST');
    expect(bits(wav.channels)).toEqual(bits(decodeWaveToFloat32Channels(bytes).audioChannels));
  });
});

/** The library's conversion of `data` (copied to an aligned buffer of its own) as `bitsPerSample`-bit samples. */
function libraryChannels(data: Uint8Array, channels: number, bitsPerSample: BitDepth, float = false): Float32Array[] {
  return bufferToFloat32Channels(new Uint8Array(data), channels, bitsPerSample, float ? SampleFormat.Float : SampleFormat.PCM);
}

describe('decodeWavFile: odd layouts', () => {
  const odd = Uint8Array.from({ length: 4001 }, (_, i) => (i * 37 + 11) & 0xff);

  it('a data chunk of odd length (8-bit), its pad byte, then a trailing LIST chunk', () => {
    const path = write('odd.wav', riff([['fmt ', fmtBody({ bits: 8 })], ['data', odd], ['LIST', ascii('INFOISFT')]]));
    const wav = decodeWavFile(path);
    expect(wav.chunkIds).toEqual(['fmt ', 'data', 'LIST']);
    expect(bits(wav.channels)).toEqual(bits(libraryChannels(odd, 1, 8)));
  });

  it('a data chunk whose pad byte is missing at the end of the file', () => {
    const whole = riff([['fmt ', fmtBody({ bits: 8 })], ['data', odd]]);
    const path = write('no-pad.wav', concat(ascii('RIFF'), u32(whole.length - 9), whole.subarray(8, whole.length - 1)));
    expect(bits(decodeWavFile(path).channels)).toEqual(bits(libraryChannels(odd, 1, 8)));
  });

  it('a fmt chunk longer than its 16 bytes, chunks before the data, float64 stereo', () => {
    const data = new Uint8Array(new Float64Array([0.5, -0.25, 1e-300, -0, 3e38, Number.NaN, 1e39, -1]).buffer);
    const fmt = concat(fmtBody({ tag: 3, channels: 2, bits: 64 }), new Uint8Array(100));
    const path = write('long-fmt.wav', riff([['fmt ', fmt], ['fact', u32(4)], ['data', data]]));
    const wav = decodeWavFile(path);
    expect(bits(wav.channels)).toEqual(bits(libraryChannels(data, 2, 64, true)));
    expect(wav.warnings.join()).toMatch(/2 sample\(s\) are not finite/);
  });

  it('float32 mono keeps -0 and a NaN payload bit for bit, as the view of the bytes the library gave did', () => {
    const data = concat(new Uint8Array(new Float32Array([-0, 0.25]).buffer), u32(0x7fc01234), u32(0xff800000));
    const path = write('nan-payload.wav', riff([['fmt ', fmtBody({ tag: 3, bits: 32 })], ['data', data]]));
    expect(bits(decodeWavFile(path).channels)).toEqual(bits(libraryChannels(data, 1, 32, true)));
    expect(bits(decodeWavFile(path).channels)).toEqual(['00000080' + '0000803e' + '3412c07f' + '000080ff']);
  });

  it('streamed data (placeholder size) that ends inside a frame: whole frames read, the rest named', () => {
    const data = odd.subarray(0, 4001 - (4001 % 6) + 4); // 24-bit stereo: 6-byte frames, 4 bytes of a last one
    const body = concat(ascii('WAVE'), chunk('fmt ', fmtBody({ channels: 2, bits: 24 })), ascii('data'), u32(0xffffffff), data);
    const path = write('streamed.wav', concat(ascii('RIFF'), u32(0xffffffff), body));
    const wav = decodeWavFile(path);
    expect(bits(wav.channels)).toEqual(bits(libraryChannels(data.subarray(0, data.length - 4), 2, 24)));
    expect(wav.warnings).toContain('streamed data: 4 bytes of an incomplete last frame dropped');
  });

  it('truncated data (a declared size past the end) is refused in one line, as decodeWav refuses it', () => {
    const cut = goodWav.subarray(0, goodWav.length - 10);
    const path = write('cut.wav', cut);
    expect(() => decodeWavFile(path)).toThrow(`${path}: chunk "data" at byte 36 declares 200 bytes but only 190 remain in the file`);
  });
});

describe('decodeWavFile: malformed files, refused as decodeWav refuses their bytes', () => {
  it.each(malformedWavs.map((m) => [m.name, m] as const))('%s', (name, m) => {
    const path = write(`bad-${name.replace(/\W+/g, '-')}.wav`, m.bytes);
    let fromBytes: unknown;
    try {
      decodeWav(m.bytes, path);
    } catch (error) {
      fromBytes = error;
    }
    expect(fromBytes).toBeInstanceOf(WavError);
    expect(() => decodeWavFile(path)).toThrow((fromBytes as WavError).message);
  });

  it('names the upload label, not the path on disk', () => {
    const path = write('label.wav', malformedWavs[0].bytes);
    expect(() => decodeWavFile(path, { label: 'take.wav' })).toThrow(/^take\.wav: empty file/);
  });

  it('a folder is refused as readChecked refuses it', () => {
    expect(() => decodeWavFile(dir)).toThrow(`${dir}: not a regular file (a folder)`);
  });
});
