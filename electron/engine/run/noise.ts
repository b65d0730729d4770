/**
 * The vocoder's noise source: uniform on [-1, 1), a pure function of the absolute sample index, so a
 * streamed chunk sees exactly the samples the whole-utterance decode sees.
 */
export function noiseAt(index: number): number {
  let x = (index ^ 0x5bd1e995) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  x = (x ^ (x >>> 16)) >>> 0;
  return x / 2147483648 - 1;
}

/** noise[start .. start + count) */
export function noiseRange(start: number, count: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = noiseAt(start + i);
  return out;
}
