import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';

// Files written by two independent encoders (sox, ffmpeg), decoded by us and compared with the
// encoders' own float32 dumps. Every conversion involved is exact (integer × power of two, or a
// float64 → float32 round-to-nearest), so the reference is bit-exact: tolerance 0.
const dir = mkdtempSync(join(tmpdir(), 'wav-ext-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(tool: string, args: string[]): Buffer {
  return execFileSync(tool, args, { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** ffmpeg's float32 dump, interleaved, as a reference independent of our decoder. */
function ffmpegF32(file: string): Float32Array {
  const raw = run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-c:a', 'pcm_f32le', '-']);
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

function soxF32(file: string): Float32Array {
  const raw = run('sox', [file, '-t', 'f32', '-']);
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

function soxS32(file: string): Int32Array {
  const raw = run('sox', [file, '-t', 's32', '-']);
  return new Int32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

function interleave(channels: Float32Array[]): Float32Array {
  const out = new Float32Array(channels.length * channels[0].length);
  channels.forEach((ch, c) => ch.forEach((v, i) => (out[i * channels.length + c] = v)));
  return out;
}

function formatTag(bytes: Uint8Array): number {
  return bytes[20] | (bytes[21] << 8);
}

const soxCases = [
  { format: 'pcm8', args: ['-b', '8', '-e', 'unsigned-integer'] },
  { format: 'pcm16', args: ['-b', '16', '-e', 'signed-integer'] },
  { format: 'pcm24', args: ['-b', '24', '-e', 'signed-integer'] },
  { format: 'pcm32', args: ['-b', '32', '-e', 'signed-integer'] },
  { format: 'float32', args: ['-b', '32', '-e', 'floating-point'] },
  { format: 'float64', args: ['-b', '64', '-e', 'floating-point'] },
] as const;

describe('decodeWav vs files written by sox', () => {
  for (const channels of [1, 3]) {
    it.each(soxCases)(`$format, ${channels} channel(s): bit-identical to ffmpeg's float32 dump`, ({ format, args }) => {
      const file = join(dir, `sox-${format}-${channels}.wav`);
      // -D: no dither, so the file holds exactly what sox computed; three sines at 0.3 amplitude each.
      run('sox', ['-D', '-n', '-r', '24000', '-c', String(channels), ...args, file, 'synth', '0.05', 'sine', '440', 'sine', '660', 'sine', '880', 'vol', '0.3']);
      const bytes = new Uint8Array(readFileSync(file));
      const wav = decodeWav(bytes, file);
      expect(wav.format).toBe(format);
      expect(wav.sampleRate).toBe(24000);
      expect(wav.channels).toHaveLength(channels);
      expect(wav.channels[0]).toHaveLength(1200);
      // sox writes WAVE_FORMAT_EXTENSIBLE above 2 channels or 16 bits; check we saw what the bytes say.
      expect(wav.extensible).toBe(formatTag(bytes) === 0xfffe);
      if (format === 'pcm32') {
        // ffmpeg's s32 -> float conversion is not correctly rounded for every sample (seen here on
        // mono files), so the reference is sox's raw int32 dump through the WAVE formula int / 2^31,
        // rounded once to float32.
        expect(interleave(wav.channels)).toEqual(Float32Array.from(soxS32(file), (v) => v / 2 ** 31));
      } else {
        expect(interleave(wav.channels)).toEqual(ffmpegF32(file));
      }
      // sox's float dump passes through its 32-bit integer pipeline: exact for 8..24-bit PCM sources.
      if (['pcm8', 'pcm16', 'pcm24'].includes(format)) expect(interleave(wav.channels)).toEqual(soxF32(file));
    });
  }

  it('covers EXTENSIBLE PCM from sox', () => {
    const tags = ['pcm24-1', 'pcm32-3'].map((f) => formatTag(new Uint8Array(readFileSync(join(dir, `sox-${f}.wav`)))));
    expect(tags).toEqual([0xfffe, 0xfffe]);
  });
});

const ffmpegCodecs = [
  ['pcm8', 'pcm_u8'],
  ['pcm16', 'pcm_s16le'],
  ['pcm24', 'pcm_s24le'],
  ['pcm32', 'pcm_s32le'],
  ['float32', 'pcm_f32le'],
  ['float64', 'pcm_f64le'],
] as const;

describe('decodeWav vs files written by ffmpeg (with its LIST chunk)', () => {
  it.each(ffmpegCodecs)('%s stereo (%s): bit-identical to ffmpeg float32 dump', (format, codec) => {
    const file = join(dir, `ff-${codec}.wav`);
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=24000:duration=0.05',
      '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=24000:duration=0.05',
      '-filter_complex', '[0][1]amerge=inputs=2', '-c:a', codec, file]);
    const wav = decodeWav(new Uint8Array(readFileSync(file)), file);
    expect(wav.format).toBe(format);
    expect(wav.chunkIds).toContain('LIST');
    expect(wav.channels).toHaveLength(2);
    expect(interleave(wav.channels)).toEqual(ffmpegF32(file));
  });

  it('float32 with 3 channels is written as EXTENSIBLE float by ffmpeg and decodes bit-exactly', () => {
    const file = join(dir, 'ff-f32-3ch.wav');
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=24000:duration=0.05', '-ac', '3', '-c:a', 'pcm_f32le', file]);
    const bytes = new Uint8Array(readFileSync(file));
    expect(formatTag(bytes)).toBe(0xfffe);
    const wav = decodeWav(bytes, file);
    expect([wav.format, wav.extensible, wav.channels.length]).toEqual(['float32', true, 3]);
    expect(interleave(wav.channels)).toEqual(ffmpegF32(file));
  });

  it('24-bit sine matches the formula sin(2π·440·n/24000)/8', () => {
    // ffmpeg's sine source has amplitude 1/8 and starts at phase 0; it is computed with a lookup
    // table whose error measured here is 5.4e-5, so the tolerance is 1e-4 (the 24-bit step is 1.2e-7).
    const file = join(dir, 'ff-pcm_s24le.wav');
    const left = decodeWav(new Uint8Array(readFileSync(file)), file).channels[0];
    let worst = 0;
    left.forEach((v, n) => (worst = Math.max(worst, Math.abs(v - Math.sin((2 * Math.PI * 440 * n) / 24000) / 8))));
    expect(worst).toBeLessThan(1e-4);
  });
});

describe('decodeWav on streamed WAVs (placeholder sizes)', () => {
  it('reads ffmpeg and sox pipe output like the same audio written to a file', () => {
    const file = join(dir, 'ref.wav');
    run('sox', ['-D', '-n', '-r', '24000', '-b', '16', file, 'synth', '0.05', 'sine', '440']);
    const ref = decodeWav(new Uint8Array(readFileSync(file)), file).channels[0];
    // sox only writes placeholders when it does not know the length, as with synth to a pipe.
    const fromSox = run('sox', ['-D', '-n', '-r', '24000', '-b', '16', '-t', 'wav', '-', 'synth', '0.05', 'sine', '440']);
    const fromFfmpeg = run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'wav', '-']);
    for (const [name, bytes] of [['sox pipe', fromSox], ['ffmpeg pipe', fromFfmpeg]] as const) {
      const wav = decodeWav(new Uint8Array(bytes), name);
      expect(wav.channels[0]).toEqual(ref);
      expect(wav.warnings.join(' ')).toMatch(/streaming placeholder/);
    }
  });
});
