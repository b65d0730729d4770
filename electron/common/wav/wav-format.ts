import { WavError } from '../errors.js';
import { readU16, readU32 } from './riff-chunks.js';

export type WavSampleFormat = 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32' | 'float64';

/** What the fmt chunk says, checked for consistency. */
export interface WavFormat {
  sampleFormat: WavSampleFormat;
  encoding: 'pcm' | 'float';
  bitsPerSample: 8 | 16 | 24 | 32 | 64;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  extensible: boolean;
}

export const MAX_CHANNELS = 64;
export const MIN_SAMPLE_RATE = 1000;
export const MAX_SAMPLE_RATE = 768000;

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** Bytes 2..15 of every KSDATAFORMAT_SUBTYPE_* GUID (the first two bytes are the format tag). */
const SUBFORMAT_GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

const KNOWN_TAGS: Record<number, string> = {
  0x0002: 'Microsoft ADPCM',
  0x0006: 'A-law',
  0x0007: 'mu-law',
  0x0011: 'IMA ADPCM',
  0x0031: 'GSM 6.10',
  0x0055: 'MPEG Layer 3',
};

/** Parses and checks a fmt chunk body (`body` is exactly the chunk's bytes). */
export function parseFormat(body: Uint8Array, file: string): WavFormat {
  if (body.length < 16) throw new WavError(file, `fmt chunk is ${body.length} bytes, expected at least 16`);
  let tag = readU16(body, 0);
  const channels = readU16(body, 2);
  const sampleRate = readU32(body, 4);
  const blockAlign = readU16(body, 12);
  const bitsPerSample = readU16(body, 14);
  const extensible = tag === WAVE_FORMAT_EXTENSIBLE;
  if (extensible) {
    if (body.length < 40) {
      throw new WavError(file, `WAVE_FORMAT_EXTENSIBLE fmt chunk is ${body.length} bytes, expected at least 40`);
    }
    const guidTail = body.subarray(26, 40);
    if (!SUBFORMAT_GUID_TAIL.every((b, i) => guidTail[i] === b)) {
      throw new WavError(file, 'WAVE_FORMAT_EXTENSIBLE with an unknown subformat GUID (supported: PCM, IEEE float)');
    }
    tag = readU16(body, 24);
  }
  const encoding = tag === WAVE_FORMAT_PCM ? 'pcm' : tag === WAVE_FORMAT_IEEE_FLOAT ? 'float' : undefined;
  if (encoding === undefined) {
    const name = KNOWN_TAGS[tag] ? ` (${KNOWN_TAGS[tag]})` : '';
    throw new WavError(
      file,
      `unsupported format tag 0x${tag.toString(16).padStart(4, '0')}${name}${extensible ? ' in the EXTENSIBLE subformat' : ''}; supported: PCM (1), IEEE float (3), EXTENSIBLE (0xFFFE) with a PCM or float subformat`,
    );
  }
  if (channels === 0) throw new WavError(file, 'fmt chunk declares 0 channels');
  if (channels > MAX_CHANNELS) throw new WavError(file, `fmt chunk declares ${channels} channels, at most ${MAX_CHANNELS} are accepted`);
  if (sampleRate < MIN_SAMPLE_RATE || sampleRate > MAX_SAMPLE_RATE) {
    throw new WavError(file, `sample rate ${sampleRate} Hz is outside the accepted ${MIN_SAMPLE_RATE}..${MAX_SAMPLE_RATE} Hz`);
  }
  const allowed = encoding === 'pcm' ? [8, 16, 24, 32] : [32, 64];
  if (!allowed.includes(bitsPerSample)) {
    throw new WavError(file, `${bitsPerSample} bits per sample is not supported for ${encoding === 'pcm' ? 'PCM' : 'IEEE float'} (supported: ${allowed.join(', ')})`);
  }
  const expectedAlign = channels * (bitsPerSample / 8);
  if (blockAlign !== expectedAlign) {
    throw new WavError(
      file,
      `block align ${blockAlign} is inconsistent with ${channels} channel(s) × ${bitsPerSample} bits (expected ${expectedAlign})`,
    );
  }
  const bits = bitsPerSample as WavFormat['bitsPerSample'];
  const sampleFormat = `${encoding}${bits}` as WavSampleFormat;
  return { sampleFormat, encoding, bitsPerSample: bits, channels, sampleRate, blockAlign, extensible };
}
