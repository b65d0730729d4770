import { describe, expect, it } from 'vitest';
import { scaledLogs, sumSquaredLogRatios } from '../../../../electron/common/analysis/log-ratio.js';
import { uniform } from '../../../helpers/signals.js';

const NO_FLOOR = -Infinity;
const ln = (x: number) => {
  const out = new Float64Array(1);
  scaledLogs(Float64Array.of(x), 1, out, 1);
  return out[0];
};
const squaredLogRatio = (a: number, b: number, floorA = NO_FLOOR, floorB = NO_FLOOR) =>
  sumSquaredLogRatios(Float64Array.of(a), 0, floorA, Float64Array.of(b), 0, floorB, 1);

describe('table logarithms', () => {
  it('match Math.log to 2e-14 from e^-60 to e^60, one by one and summed', () => {
    const next = uniform(3);
    const count = 20000;
    const a = new Float64Array(count);
    const b = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      a[k] = Math.exp(60 * (next() - 0.5));
      b[k] = Math.exp(60 * (next() - 0.5));
    }
    const logs = new Float64Array(count);
    scaledLogs(a, 1, logs, count);
    let worst = 0;
    for (let k = 0; k < count; k++) worst = Math.max(worst, Math.abs(logs[k] - Math.log(a[k])));
    expect(worst).toBeLessThan(2e-14);
    let reference = 0;
    for (let k = 0; k < count; k++) reference += Math.log(a[k] / b[k]) ** 2;
    const found = sumSquaredLogRatios(a, 0, NO_FLOOR, b, 0, NO_FLOOR, count);
    expect(Math.abs(found - reference) / reference).toBeLessThan(1e-14);
  });

  it('read 1 as exactly 0 and a power of two exactly, and scale', () => {
    expect(ln(1)).toBe(0);
    expect(squaredLogRatio(0.37, 0.37)).toBe(0);
    expect(ln(8)).toBe(3 * Math.LN2);
    const out = new Float64Array(2);
    scaledLogs(Float64Array.of(4, 0.25), 0.5, out, 2);
    expect(Array.from(out)).toEqual([Math.LN2, -Math.LN2]);
  });

  it('read what the table cannot as Math.log does: 0, subnormal, infinite, negative, NaN', () => {
    expect(ln(0)).toBe(-Infinity);
    expect(ln(5e-324)).toBe(Math.log(5e-324));
    expect(ln(Infinity)).toBe(Infinity);
    expect(ln(-1)).toBeNaN();
    expect(ln(NaN)).toBeNaN();
  });

  it('read each side through its floor, NaN as the floor', () => {
    expect(squaredLogRatio(1e-20, 1, 1e-10)).toBeCloseTo(Math.log(1e-10) ** 2, 10);
    expect(squaredLogRatio(NaN, 2, 1e-3, 1e-3)).toBeCloseTo(Math.log(1e-3 / 2) ** 2, 10);
    expect(squaredLogRatio(4, 1e-9, 0, 2)).toBeCloseTo(Math.LN2 ** 2, 14);
  });

  it('start at the given offsets and stop at count', () => {
    const a = Float64Array.of(9, Math.E, 5);
    const b = Float64Array.of(7, 1, 1, 3);
    expect(sumSquaredLogRatios(a, 1, NO_FLOOR, b, 2, NO_FLOOR, 1)).toBeCloseTo(1, 14);
  });
});
