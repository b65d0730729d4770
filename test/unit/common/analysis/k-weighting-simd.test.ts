import { describe, expect, it } from 'vitest';
import { kWeightingCoefficients, pairedLoop } from '../../../../electron/common/analysis/k-weighting.js';
import { simdPairFilter } from '../../../../electron/common/analysis/k-weighting-simd.js';
import { speechLike } from '../../../helpers/signals.js';

// The kernel does the JavaScript loop's operations in the same order on IEEE doubles, so its state and
// sums must be the JavaScript loop's to the last bit, not merely close.
describe('simdPairFilter: the paired K-weighting loop in WebAssembly SIMD', () => {
  const kernel = simdPairFilter();

  it('compiles here (Node has WebAssembly SIMD)', () => {
    expect(kernel).not.toBeNull();
  });

  it.each([
    [24000, 2400],
    [44100, 4410],
    [192000, 70000], // 2 × 70,000 samples: more than the one page the module starts with
  ])('at %i Hz, %i samples from a running state, bit for bit', (rate, count) => {
    const filter = kWeightingCoefficients(rate);
    const x = speechLike((3 * count) / rate, rate, 7);
    // Warm states from a first pass, so that the second starts from nonzero values.
    const jsA = new Float64Array(4);
    const jsB = new Float64Array(4);
    const jsSums = new Float64Array(2);
    pairedLoop(x, filter, 0, count, count, jsA, jsB, jsSums);
    const simdA = jsA.slice();
    const simdB = jsB.slice();
    const simdSums = new Float64Array(2);
    kernel!.setFilter(filter);
    pairedLoop(x, filter, count, 2 * count, count - 1, jsA, jsB, jsSums);
    kernel!.run(x, count, 2 * count, count - 1, simdA, simdB, simdSums);
    expect(jsSums[0]).toBeGreaterThan(0);
    expect(Array.from(simdSums)).toEqual(Array.from(jsSums));
    expect(Array.from(simdA)).toEqual(Array.from(jsA));
    expect(Array.from(simdB)).toEqual(Array.from(jsB));
  });
});
