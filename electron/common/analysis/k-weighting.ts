/**
 * K-weighting of ITU-R BS.1770-4: a high-shelf "pre-filter" (head effects, +4 dB above ~1.7 kHz)
 * followed by the "RLB" high-pass (~38 Hz). The biquads are derived from the analogue prototype at
 * the given sample rate by the bilinear transform with frequency pre-warping, as libebur128's
 * `ebur128_init_filter()` does, so every sample rate gets its own filter; at 48 kHz they reproduce
 * the standard's Table 1 and Table 2 coefficients.
 */

import { type SimdPairFilter, simdPairFilter } from './k-weighting-simd.js';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  /** Denominator with a0 normalised to 1: y = b0·x + b1·x1 + b2·x2 − a1·y1 − a2·y2. */
  a1: number;
  a2: number;
}

export interface KWeighting {
  shelf: Biquad;
  highpass: Biquad;
}

// Analogue prototype parameters, as in libebur128 (fitted to the standard's 48 kHz coefficients).
const SHELF_F0 = 1681.974450955533;
const SHELF_GAIN_DB = 3.999843853973347;
const SHELF_Q = 0.7071752369554196;
const SHELF_VB_EXPONENT = 0.4996667741545416;
const HIGHPASS_F0 = 38.13547087602444;
const HIGHPASS_Q = 0.5003270373238773;

export function kWeightingCoefficients(sampleRate: number): KWeighting {
  let k = Math.tan((Math.PI * SHELF_F0) / sampleRate);
  const vh = Math.pow(10, SHELF_GAIN_DB / 20);
  const vb = Math.pow(vh, SHELF_VB_EXPONENT);
  let a0 = 1 + k / SHELF_Q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / SHELF_Q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF_Q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF_Q + k * k) / a0,
  };
  k = Math.tan((Math.PI * HIGHPASS_F0) / sampleRate);
  a0 = 1 + k / HIGHPASS_Q + k * k;
  // The standard (and libebur128) leave the high-pass numerator unnormalised: 1, −2, 1.
  const highpass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / HIGHPASS_Q + k * k) / a0,
  };
  return { shelf, highpass };
}

/** Magnitude response of a biquad at frequency f (Hz), for tests and documentation. */
export function biquadGain(q: Biquad, f: number, sampleRate: number): number {
  const w = (2 * Math.PI * f) / sampleRate;
  const c1 = Math.cos(w);
  const s1 = Math.sin(w);
  const c2 = Math.cos(2 * w);
  const s2 = Math.sin(2 * w);
  const nr = q.b0 + q.b1 * c1 + q.b2 * c2;
  const ni = -(q.b1 * s1 + q.b2 * s2);
  const dr = 1 + q.a1 * c1 + q.a2 * c2;
  const di = -(q.a1 * s1 + q.a2 * s2);
  return Math.sqrt((nr * nr + ni * ni) / (dr * dr + di * di));
}

/**
 * K-weights one channel and adds weight·Σy² of each segment into `energies[s]`, where segment s
 * covers samples [bounds[s], bounds[s+1]). Float64 state and sums throughout (transposed direct form II).
 *
 * Each output waits on the previous one, so one filter runs at the latency of its arithmetic, not at
 * the machine's throughput. The segments are therefore split in two halves filtered in one loop, side
 * by side. The second half starts from zero state `settlingSamples(filter)` samples before its first
 * segment (those samples are filtered, not counted), by which time any starting state has decayed
 * below 1e-30 of itself: the energies agree with one sequential pass to rounding (~1e-16).
 */
export function accumulateKWeightedEnergy(
  signal: Float32Array,
  filter: KWeighting,
  weight: number,
  bounds: Int32Array,
  energies: Float64Array,
): void {
  const segments = bounds.length - 1;
  const half = segments >> 1;
  const settle = settlingSamples(filter);
  if (half === 0 || bounds[half] - bounds[0] < 4 * settle) {
    runSegments(signal, filter, weight, bounds, energies, 0, segments, new Float64Array(4));
    return;
  }
  const stateA = new Float64Array(4);
  const stateB = new Float64Array(4);
  const warm = new Float64Array(1);
  filterRange(signal, filter, bounds[half] - settle, bounds[half], stateB, warm);
  runSegmentPairs(signal, filter, weight, bounds, energies, half, stateA, stateB);
  // An odd count leaves the last segment to the second half alone.
  if (2 * half < segments) runSegments(signal, filter, weight, bounds, energies, 2 * half, segments, stateB);
}

/**
 * Samples after which the filter's response to any state has decayed below 1e-30 of it (69 time
 * constants of its slowest pole: the 38 Hz high-pass, ~4000 samples at 24 kHz).
 */
export function settlingSamples(filter: KWeighting): number {
  let slowest = 0;
  for (const q of [filter.shelf, filter.highpass]) {
    // Poles: roots of z² + a1·z + a2.
    const disc = q.a1 * q.a1 - 4 * q.a2;
    const radius =
      disc < 0
        ? Math.sqrt(q.a2)
        : Math.max(Math.abs((-q.a1 + Math.sqrt(disc)) / 2), Math.abs((-q.a1 - Math.sqrt(disc)) / 2));
    slowest = Math.max(slowest, radius);
  }
  return Math.ceil(Math.log(1e-30) / Math.log(slowest)) + 16;
}

/** Segments [from, to) one after another, from `state` ([p1, p2, r1, r2]), which it updates. */
function runSegments(
  signal: Float32Array,
  filter: KWeighting,
  weight: number,
  bounds: Int32Array,
  energies: Float64Array,
  from: number,
  to: number,
  state: Float64Array,
): void {
  const sum = new Float64Array(1);
  for (let s = from; s < to; s++) {
    sum[0] = 0;
    filterRange(signal, filter, bounds[s], bounds[s + 1], state, sum);
    energies[s] += weight * sum[0];
  }
}

/** Filters samples [from, to) from `state`, adding Σy² into sum[0]; flushes a state below 1e-30 to zero. */
function filterRange(
  signal: Float32Array,
  filter: KWeighting,
  from: number,
  to: number,
  state: Float64Array,
  sum: Float64Array,
): void {
  const { shelf: p, highpass: r } = filter;
  let p1 = state[0],
    p2 = state[1],
    r1 = state[2],
    r2 = state[3],
    acc = 0;
  for (let i = from; i < to; i++) {
    const x = signal[i];
    const u = p.b0 * x + p1;
    p1 = p.b1 * x - p.a1 * u + p2;
    p2 = p.b2 * x - p.a2 * u;
    const y = r.b0 * u + r1;
    r1 = r.b1 * u - r.a1 * y + r2;
    r2 = r.b2 * u - r.a2 * y;
    acc += y * y;
  }
  sum[0] += acc;
  // A decaying state in silence would pass through subnormal doubles, which are very slow on x86;
  // anything below 1e-30 contributes nothing measurable (< −600 dB), so it is flushed to zero.
  if (Math.abs(p1) < 1e-30 && Math.abs(p2) < 1e-30) p1 = p2 = 0;
  if (Math.abs(r1) < 1e-30 && Math.abs(r2) < 1e-30) r1 = r2 = 0;
  state[0] = p1;
  state[1] = p2;
  state[2] = r1;
  state[3] = r2;
}

/**
 * Segment s of the first half and segment half + s of the second, for s < half, side by side (two
 * independent filters: by the WebAssembly SIMD kernel where there is one, else by pairedLoop); the
 * longer of a pair (odd rates: lengths differ by one) finishes alone.
 */
function runSegmentPairs(
  signal: Float32Array,
  filter: KWeighting,
  weight: number,
  bounds: Int32Array,
  energies: Float64Array,
  half: number,
  stateA: Float64Array,
  stateB: Float64Array,
): void {
  const r = filter.highpass;
  // The high-pass numerator is 1, −2, 1 (kWeightingCoefficients), so it is applied as additions.
  if (r.b0 !== 1 || r.b1 !== -2 || r.b2 !== 1) {
    throw new Error('runSegmentPairs: expects the BS.1770 high-pass numerator 1, −2, 1');
  }
  const simd = pairKernel();
  simd?.setFilter(filter);
  const sums = new Float64Array(2);
  const tail = new Float64Array(1);
  for (let s = 0; s < half; s++) {
    const i = bounds[s];
    const j = bounds[half + s];
    const count = Math.min(bounds[s + 1] - i, bounds[half + s + 1] - j);
    if (simd) simd.run(signal, i, j, count, stateA, stateB, sums);
    else pairedLoop(signal, filter, i, j, count, stateA, stateB, sums);
    tail[0] = 0;
    filterRange(signal, filter, i + count, bounds[s + 1], stateA, tail);
    energies[s] += weight * (sums[0] + tail[0]);
    tail[0] = 0;
    filterRange(signal, filter, j + count, bounds[half + s + 1], stateB, tail);
    energies[half + s] += weight * (sums[1] + tail[0]);
  }
}

let kernel: SimdPairFilter | null | undefined;
function pairKernel(): SimdPairFilter | null {
  if (kernel === undefined) kernel = simdPairFilter();
  return kernel;
}

/**
 * Filters A over signal[i ..] and B over signal[j ..], `count` samples each, from and into stateA and
 * stateB ([p1, p2, r1, r2]); Σy² of A into sums[0], of B into sums[1]. The high-pass numerator must be
 * 1, −2, 1. Exported for the test that holds the SIMD kernel to it.
 */
export function pairedLoop(
  signal: Float32Array,
  filter: KWeighting,
  i: number,
  j: number,
  count: number,
  stateA: Float64Array,
  stateB: Float64Array,
  sums: Float64Array,
): void {
  const { shelf: p, highpass: r } = filter;
  const pb0 = p.b0,
    pb1 = p.b1,
    pb2 = p.b2,
    pa1 = p.a1,
    pa2 = p.a2;
  const ra1 = r.a1,
    ra2 = r.a2;
  const end = i + count;
  let ap1 = stateA[0],
    ap2 = stateA[1],
    ar1 = stateA[2],
    ar2 = stateA[3],
    bp1 = stateB[0],
    bp2 = stateB[1],
    br1 = stateB[2],
    br2 = stateB[3];
  let sumA = 0;
  let sumB = 0;
  for (; i < end; i++, j++) {
    const xa = signal[i];
    const xb = signal[j];
    const ua = pb0 * xa + ap1;
    const ub = pb0 * xb + bp1;
    ap1 = pb1 * xa - pa1 * ua + ap2;
    bp1 = pb1 * xb - pa1 * ub + bp2;
    ap2 = pb2 * xa - pa2 * ua;
    bp2 = pb2 * xb - pa2 * ub;
    const ya = ua + ar1;
    const yb = ub + br1;
    // rb1·u − ra1·y + r2 with rb1 = −2 and rb2 = 1, as additions: the same value to the last bit.
    ar1 = ar2 - (ua + ua + ra1 * ya);
    br1 = br2 - (ub + ub + ra1 * yb);
    ar2 = ua - ra2 * ya;
    br2 = ub - ra2 * yb;
    sumA += ya * ya;
    sumB += yb * yb;
  }
  stateA[0] = ap1;
  stateA[1] = ap2;
  stateA[2] = ar1;
  stateA[3] = ar2;
  stateB[0] = bp1;
  stateB[1] = bp2;
  stateB[2] = br1;
  stateB[3] = br2;
  sums[0] = sumA;
  sums[1] = sumB;
}
