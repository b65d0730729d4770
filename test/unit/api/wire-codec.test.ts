import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame } from '../../../electron/common/api/wire-codec.js';

describe('wire codec', () => {
  it('round-trips typed arrays bit-exactly, non-finite numbers and plain JSON', () => {
    const samples = new Float32Array([0, -1, 1, 1e-38, -0.5, Math.fround(0.1)]);
    const value = {
      a: { sampleRate: 24000, samples },
      codes: new Int32Array([1, -2, 3]),
      bytes: new Uint8Array([1, 2, 3, 4, 5]), // odd length: the next blob must still start 8-aligned
      f64: new Float64Array([Math.PI]),
      nums: [NaN, Infinity, -Infinity, 1.5],
      text: 'ü→',
    };
    const back = decodeFrame(encodeFrame(value)) as typeof value;
    expect(back.a.samples).toBeInstanceOf(Float32Array);
    expect(Array.from(back.a.samples)).toEqual(Array.from(samples));
    expect(Array.from(back.codes)).toEqual([1, -2, 3]);
    expect(Array.from(back.bytes)).toEqual([1, 2, 3, 4, 5]);
    expect(back.f64[0]).toBe(Math.PI);
    expect(back.nums).toEqual([NaN, Infinity, -Infinity, 1.5]);
    expect(back.text).toBe('ü→');
  });

  it('keeps audio as raw bytes: a 1 s float32 signal costs 4 bytes a sample plus a small header', () => {
    const frame = encodeFrame({ samples: new Float32Array(24000) });
    expect(frame.byteLength).toBeLessThan(24000 * 4 + 64);
  });

  it('refuses frames whose references point outside the blob area, naming the problem', () => {
    const json = new TextEncoder().encode('{"x":{"$bin":["f32",0,1000]}}');
    const frame = new Uint8Array(4 + json.length);
    new DataView(frame.buffer).setUint32(0, json.length, true);
    frame.set(json, 4);
    expect(() => decodeFrame(frame)).toThrow(/outside the 0-byte blob area/);
    expect(() => decodeFrame(new Uint8Array([255, 255, 0, 0]))).toThrow(/exceeds the frame/);
  });
});
