import { ascii, concat, extensibleFmtBody, fmtBody, int16Bytes, riff, u32 } from './wav-bytes.js';

export interface MalformedWav {
  name: string;
  bytes: Uint8Array;
  /** What the error message must say (besides the file name). */
  problem: RegExp;
}

const samples = int16Bytes(Array.from({ length: 100 }, (_, i) => Math.round(8000 * Math.sin(i / 5))));

/** A good 16-bit mono 24 kHz file of 100 samples, the base every malformed case is derived from. */
export const goodWav = riff([['fmt ', fmtBody()], ['data', samples]]);

function withU32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  out.set(u32(value), offset);
  return out;
}

function raw(...parts: (string | Uint8Array)[]): Uint8Array {
  return concat(...parts.map((p) => (typeof p === 'string' ? ascii(p) : p)));
}

/** Malformed or unsupported WAV files, each built from goodWav or from scratch. */
export const malformedWavs: MalformedWav[] = [
  { name: 'empty file', bytes: new Uint8Array(0), problem: /empty file/ },
  { name: 'truncated RIFF header', bytes: goodWav.slice(0, 7), problem: /truncated header/ },
  { name: 'text renamed .wav', bytes: ascii('hello, this is a text file renamed to .wav\n'), problem: /not a WAV file.*"hell"/ },
  { name: 'RIFF but not WAVE', bytes: raw('RIFF', u32(4), 'AVI '), problem: /form type is "AVI "/ },
  { name: 'big-endian RIFX', bytes: raw('RIFX', goodWav.slice(4)), problem: /RIFX/ },
  { name: 'RF64', bytes: raw('RF64', goodWav.slice(4)), problem: /RF64/ },
  { name: 'RIFF size beyond the file', bytes: withU32(goodWav, 4, goodWav.length + 1000), problem: /RIFF size .* past the end/ },
  { name: 'RIFF size too small', bytes: withU32(goodWav, 4, 2), problem: /too small/ },
  { name: 'header only, no chunks', bytes: raw('RIFF', u32(4), 'WAVE'), problem: /no fmt chunk \(chunks found: none\)/ },
  { name: 'no fmt chunk', bytes: riff([['data', samples]]), problem: /no fmt chunk/ },
  { name: 'no data chunk', bytes: riff([['fmt ', fmtBody()], ['LIST', ascii('INFOISFT')]]), problem: /no data chunk/ },
  { name: 'data before fmt', bytes: riff([['data', samples], ['fmt ', fmtBody()]]), problem: /data chunk comes before the fmt/ },
  { name: 'two fmt chunks', bytes: riff([['fmt ', fmtBody()], ['fmt ', fmtBody()], ['data', samples]]), problem: /more than one "fmt"/ },
  { name: 'zero channels', bytes: riff([['fmt ', fmtBody({ channels: 0, blockAlign: 2 })], ['data', samples]]), problem: /0 channels/ },
  { name: 'absurd channel count', bytes: riff([['fmt ', fmtBody({ channels: 1000 })], ['data', new Uint8Array(2000)]]), problem: /1000 channels/ },
  { name: 'zero sample rate', bytes: riff([['fmt ', fmtBody({ sampleRate: 0 })], ['data', samples]]), problem: /sample rate 0 Hz/ },
  { name: 'absurd sample rate', bytes: riff([['fmt ', fmtBody({ sampleRate: 4_000_000_000 })], ['data', samples]]), problem: /sample rate 4000000000 Hz/ },
  { name: 'unsupported bits per sample', bytes: riff([['fmt ', fmtBody({ bits: 12, blockAlign: 2 })], ['data', samples]]), problem: /12 bits per sample/ },
  { name: '16-bit float', bytes: riff([['fmt ', fmtBody({ tag: 3, bits: 16 })], ['data', samples]]), problem: /16 bits per sample .* IEEE float/ },
  { name: 'block align inconsistent', bytes: riff([['fmt ', fmtBody({ blockAlign: 3 })], ['data', samples]]), problem: /block align 3/ },
  { name: 'MP3 format tag', bytes: riff([['fmt ', fmtBody({ tag: 0x55 })], ['data', samples]]), problem: /0x0055 \(MPEG Layer 3\)/ },
  { name: 'EXTENSIBLE with unknown GUID', bytes: riff([['fmt ', extensibleFmtBody(1, 1, 24000, 16).map((b, i) => (i === 39 ? 0 : b))], ['data', samples]]), problem: /unknown subformat GUID/ },
  { name: 'EXTENSIBLE fmt too short', bytes: riff([['fmt ', extensibleFmtBody(1, 1, 24000, 16).slice(0, 18)], ['data', samples]]), problem: /EXTENSIBLE fmt chunk is 18 bytes/ },
  { name: 'fmt chunk too short', bytes: riff([['fmt ', fmtBody().slice(0, 8)], ['data', samples]]), problem: /fmt chunk is 8 bytes/ },
  { name: 'zero-length data', bytes: riff([['fmt ', fmtBody()], ['data', new Uint8Array(0)]]), problem: /data chunk is empty/ },
  { name: 'data size not a multiple of block align', bytes: riff([['fmt ', fmtBody()], ['data', samples.slice(0, 101)]]), problem: /not a multiple of the block align 2/ },
  { name: 'file truncated inside data', bytes: withU32(goodWav.slice(0, 100), 4, 92), problem: /"data" .* declares 200 bytes but only 56 remain/ },
  { name: 'huge declared data size', bytes: withU32(goodWav, 40, 0x7ffffff0), problem: /declares 2147483632 bytes but only 200 remain/ },
  { name: 'fmt size beyond the file', bytes: withU32(goodWav, 16, 0xfffffff0), problem: /"fmt " .* declares 4294967280 bytes/ },
  { name: 'binary junk instead of a chunk', bytes: raw('RIFF', u32(16), 'WAVE', new Uint8Array([0, 1, 2, 0xff, 9, 9, 9, 9, 0, 0, 0, 0])), problem: /invalid chunk id 0x000102ff at byte 12/ },
  { name: 'chunk header cut short', bytes: raw('RIFF', u32(8), 'WAVE', 'fmt '), problem: /no fmt chunk/ },
  { name: 'fmt only, 1 byte odd chunk then EOF', bytes: riff([['fmt ', fmtBody()], ['junk', new Uint8Array(1)]]), problem: /no data chunk/ },
];
