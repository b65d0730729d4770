import { InputError } from '../errors.js';
import { philox4x32 } from './philox.js';

const words = new Uint32Array(4);
const TWO_32 = 4294967296;

/** The seed the generator accepts: an integer in [0, 2^53) (its low and high 32 bits key Philox). */
export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new InputError(`seed: expected an integer in [0, 2^53), found ${seed}`, 'seed');
}

/**
 * A uniform number in [0, 1) that depends only on (seed, step, codebook, draw): Philox4x32-10 with
 * key = the seed's low and high 32 bits and counter = (step, codebook, draw, 0). The first two output
 * words make a 53-bit fraction (the top 27 bits of word 0 and top 26 of word 1, as in
 * `genrand_res53`), so the value is exact in a double and never reaches 1.
 *
 * seed: integer in [0, 2^53); step: 1-based decode step; codebook: 0 for the talker, 1..Q-1 for the
 * code predictor; draw: the index of the draw within that (step, codebook), usually 0.
 */
export function uniform(seed: number, step: number, codebook: number, draw = 0): number {
  checkSeed(seed);
  const lo = seed % TWO_32;
  const hi = Math.floor(seed / TWO_32);
  philox4x32(step, codebook, draw, 0, lo, hi, words);
  return ((words[0] >>> 5) * 67108864 + (words[1] >>> 6)) / 9007199254740992;
}
