/**
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011; the Random123
 * library), in 32-bit integer arithmetic (no BigInt) so it is fast and bit-exact on every machine.
 * A counter-based generator: the output is a pure function of (counter, key), so two profiles keyed by
 * the same (seed, step, codebook, draw) get the same number whatever else they computed before.
 */

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** High 32 bits of the 64-bit product of two uint32, from four exact 16×16-bit partial products. */
function mulhi(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const lh = al * bh;
  const hl = ah * bl;
  const mid = ((al * bl) >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (ah * bh + (lh >>> 16) + (hl >>> 16) + (mid >>> 16)) >>> 0;
}

/** Writes Philox4x32-10(counter, key) into `out` (4 uint32 words) and returns it. */
export function philox4x32(
  c0: number, c1: number, c2: number, c3: number,
  k0: number, k1: number,
  out: Uint32Array = new Uint32Array(4),
): Uint32Array {
  let x0 = c0 >>> 0, x1 = c1 >>> 0, x2 = c2 >>> 0, x3 = c3 >>> 0;
  let key0 = k0 >>> 0, key1 = k1 >>> 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      key0 = (key0 + W0) >>> 0;
      key1 = (key1 + W1) >>> 0;
    }
    const hi0 = mulhi(M0, x0);
    const lo0 = Math.imul(M0, x0) >>> 0;
    const hi1 = mulhi(M1, x2);
    const lo1 = Math.imul(M1, x2) >>> 0;
    x0 = (hi1 ^ x1 ^ key0) >>> 0;
    x1 = lo1;
    x2 = (hi0 ^ x3 ^ key1) >>> 0;
    x3 = lo0;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
  return out;
}
