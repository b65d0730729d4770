import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { sidecarFromBytes } from '../../../../electron/common/trace/module-sidecar.js';
import { sidecarBytes } from './sidecar-bytes.js';

const entry = (key: string, extra: object = {}) => JSON.stringify({ __metadata__: { schema: 'tts-parity-modules/1' }, [key]: { dtype: 'F32', shape: [2], data_offsets: [0, 8], ...extra } });

function refusal(bytes: Uint8Array): string {
  try {
    sidecarFromBytes(bytes, 's.modules.safetensors');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('module sidecar (safetensors) reader', () => {
  it('reads entries in (step, seq) order whatever the header order, and their float32 values', () => {
    const s = sidecarFromBytes(
      sidecarBytes([
        { key: '10/00000/head', shape: [1], values: [7] },
        { key: '2/00001/layers.0.mlp', shape: [2], values: [0.5, -1.25] },
        { key: '2/00000/embed', shape: [1, 2], values: [3, 4] },
      ]),
      'x',
    );
    expect(s.entries.map((e) => [e.step, e.seq, e.name])).toEqual([
      [2, 0, 'embed'],
      [2, 1, 'layers.0.mlp'],
      [10, 0, 'head'],
    ]);
    expect(Array.from(s.read(s.entries[1]))).toEqual([0.5, -1.25]);
    expect(s.entries[0].shape).toEqual([1, 2]);
  });

  it('keeps a module name holding slashes and #i whole', () => {
    const s = sidecarFromBytes(sidecarBytes([{ key: '1/00003/model/layers.0#1', shape: [], values: [1] }]), 'x');
    expect(s.entries[0]).toMatchObject({ step: 1, seq: 3, name: 'model/layers.0#1', shape: [] });
  });

  it.each([
    ['too short for a length', new Uint8Array(5), 'too short'],
    ['a header length of 2^64 − 1 (nothing allocated for it)', sidecarBytes([], { length: 2n ** 64n - 1n }), 'over the limit'],
    ['a header length past the end', sidecarBytes([], { length: 5000n }), 'runs past the end of the file'],
    ['a header that is not JSON', sidecarBytes([], { header: '{"a": ' }), 'not UTF-8 JSON'],
    ['a header that is not UTF-8', (() => { const b = sidecarBytes([], { header: '{"x":"ab"}' }); b[14] = 0xff; return b; })(), 'not UTF-8 JSON'],
    ['a JSON array', sidecarBytes([], { header: '[1, 2]' }), 'not a JSON object'],
    ['another schema', sidecarBytes([], { schema: 'other/1' }), '__metadata__.schema is "other/1"'],
    ['no metadata', sidecarBytes([], { header: '{}' }), '__metadata__.schema is missing'],
    ['a key without step/seq', sidecarBytes([], { header: entry('layers.0.mlp') }), 'expected a key {step}/{seq}/{module name}'],
    ['step 0', sidecarBytes([], { header: entry('0/00000/mlp') }), 'with step >= 1'],
    ['dtype F16', sidecarBytes([], { header: entry('1/00000/mlp', { dtype: 'F16' }) }), 'dtype "F16", expected "F32"'],
    ['offsets outside the data', sidecarBytes([], { header: entry('1/00000/mlp') }), 'lie outside the 0 data bytes'],
    ['a negative shape', sidecarBytes([], { header: entry('1/00000/mlp', { shape: [-2] }) }), 'shape must be a list'],
    ['a shape that disagrees with the offsets', sidecarBytes([{ key: '1/00000/mlp', shape: [3], values: [1, 2] }]), 'needs 12 bytes of F32, data_offsets span 8'],
    ['a huge shape', sidecarBytes([{ key: '1/00000/mlp', shape: [2 ** 40, 2 ** 40, 2 ** 40], values: [1, 2] }]), 'data_offsets span 8'],
  ])('refuses %s in one line naming the file', (_what, bytes, words) => {
    const message = refusal(bytes);
    expect(message.startsWith('s.modules.safetensors: ')).toBe(true);
    expect(message).toContain(words);
    expect(message).not.toContain('\n');
  });

  it('refuses overlapping tensors and two outputs at one (step, seq)', () => {
    const header = (b: [number, number]) =>
      JSON.stringify({
        __metadata__: { schema: 'tts-parity-modules/1' },
        '1/00000/a': { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
        '1/00001/b': { dtype: 'F32', shape: [2], data_offsets: b },
      });
    const data = (h: string) => {
      const bytes = sidecarBytes([{ key: 'pad', shape: [4], values: [0, 0, 0, 0] }], { header: h, length: BigInt(h.length) });
      return bytes;
    };
    expect(refusal(data(header([4, 12])))).toContain('overlap');
    const dup = JSON.stringify({
      __metadata__: { schema: 'tts-parity-modules/1' },
      '1/00000/a': { dtype: 'F32', shape: [1], data_offsets: [0, 4] },
      '1/0/b': { dtype: 'F32', shape: [1], data_offsets: [4, 8] },
    });
    expect(refusal(data(dup))).toContain('two outputs at step 1, seq 0');
  });
});
