import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../../../electron/common/wav/encode-wav.js';

const dir = mkdtempSync(join(tmpdir(), 'wav-enc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic test signal: a 20-bit LCG mapped to [-1.2, 1.2], so some samples clip in pcm16. */
function noise(length: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return ((state / 2 ** 31) * 2 - 1) * 1.2;
  });
}

function ffmpegF32(bytes: Uint8Array, name: string): Float32Array {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-c:a', 'pcm_f32le', '-']);
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

describe('encodeWav', () => {
  it('float32 round-trips bit-exactly, multichannel, and ffmpeg reads the same samples', () => {
    const left = noise(1000, 1);
    const right = noise(1000, 2);
    right[3] = 1e-30; // subnormal-adjacent values survive: the bytes are copied, not converted
    const bytes = encodeWav([left, right], 44100, 'float32');
    const wav = decodeWav(bytes, 'x.wav');
    expect([wav.format, wav.sampleRate, wav.chunkIds]).toEqual(['float32', 44100, ['fmt ', 'fact', 'data']]);
    expect(wav.channels).toEqual([left, right]);
    const interleaved = ffmpegF32(bytes, 'f32.wav');
    expect(interleaved.filter((_, i) => i % 2 === 0)).toEqual(left);
  });

  it('float32 header is the one sox writes (18-byte fmt, cbSize 0, fact chunk): sox reads it without a warning; ffmpeg and we read it bit-exact', () => {
    const signal = noise(4800, 4).map((v) => v / 2);
    const ours = join(dir, 'ours-f32.wav');
    writeFileSync(ours, encodeWav([signal], 24000, 'float32'));
    // sox's own float WAV of the same rate, channels and length (sox 14.4: RIFF, fmt of 18, fact, data).
    const theirs = join(dir, 'sox-f32.wav');
    execFileSync('sox', ['-r', '24000', '-n', '-e', 'floating-point', '-b', '32', '-c', '1', theirs, 'synth', '4800s', 'sine', '440']);
    const header = (file: string) => readFileSync(file).subarray(0, 58);
    expect(header(ours)).toEqual(header(theirs));
    const read = spawnSync('sox', [ours, '-t', 'f32', '-'], { encoding: 'buffer' });
    expect(read.status).toBe(0);
    expect(read.stderr.toString()).toBe('');
    const back = new Float32Array(read.stdout.buffer.slice(read.stdout.byteOffset, read.stdout.byteOffset + read.stdout.byteLength));
    // sox holds samples as 32-bit integers internally (step 2^-31 of full scale) and rounds them back to
    // float32 (half an ulp, at most 2^-25 below 1), so its dump is close, not bit-exact; bit-exactness
    // is checked with our decoder and ffmpeg below.
    expect(back.length).toBe(signal.length);
    let worst = 0;
    back.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - signal[i]))));
    expect(worst).toBeLessThanOrEqual(2 ** -25 + 2 ** -31);
    const again = readFileSync(ours);
    expect(decodeWav(again, 'ours-f32.wav').channels[0]).toEqual(signal);
    expect(ffmpegF32(again, 'ours-f32-ffmpeg.wav')).toEqual(signal);
  });

  it('pcm16 stores round(x·32768) clipped to [-32768, 32767]', () => {
    // Expected integers by the stated rule; decoding divides by 32768 (WAVE PCM full scale).
    const input = Float32Array.from([0, 1, -1, 1.5, -1.5, 0.5 / 32768, 1.4 / 32768, -1.6 / 32768, 0.25]);
    const ints = [0, 32767, -32768, 32767, -32768, 1, 1, -2, 8192];
    const wav = decodeWav(encodeWav([input], 24000, 'pcm16'), 'y.wav');
    expect(wav.format).toBe('pcm16');
    expect(Array.from(wav.channels[0], (v) => v * 32768)).toEqual(ints);
  });

  it('pcm16 error is at most half a step (1/65536) inside full scale, and ffmpeg agrees', () => {
    const input = noise(4000, 3).map((v) => v / 1.2);
    const bytes = encodeWav([input], 16000, 'pcm16');
    const back = decodeWav(bytes, 'z.wav').channels[0];
    let worst = 0;
    input.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - back[i]))));
    expect(worst).toBeLessThanOrEqual(1 / 65536 + 1e-12);
    expect(ffmpegF32(bytes, 'p16.wav')).toEqual(back);
  });

  it('is deterministic: same input, same bytes', () => {
    const x = noise(500, 4);
    expect(encodeWav([x], 24000, 'pcm16')).toEqual(encodeWav([x], 24000, 'pcm16'));
  });

  it('refuses no channels or channels of different lengths', () => {
    expect(() => encodeWav([], 24000, 'pcm16')).toThrow(/at least one channel/);
    expect(() => encodeWav([new Float32Array(2), new Float32Array(3)], 24000, 'pcm16')).toThrow(/differ in length/);
  });
});
