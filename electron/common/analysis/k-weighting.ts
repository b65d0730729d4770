/**
 * K-weighting of ITU-R BS.1770-4: a high-shelf "pre-filter" (head effects, +4 dB above ~1.7 kHz)
 * followed by the "RLB" high-pass (~38 Hz). The biquads are derived from the analogue prototype at
 * the given sample rate by the bilinear transform with frequency pre-warping, as libebur128's
 * `ebur128_init_filter()` does, so every sample rate gets its own filter; at 48 kHz they reproduce
 * the standard's Table 1 and Table 2 coefficients.
 */

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
 * covers samples [bounds[s], bounds[s+1]). Float64 state and sums throughout.
 */
export function accumulateKWeightedEnergy(
  signal: Float32Array,
  filter: KWeighting,
  weight: number,
  bounds: Int32Array,
  energies: Float64Array,
): void {
  const { shelf: p, highpass: r } = filter;
  const pb0 = p.b0,
    pb1 = p.b1,
    pb2 = p.b2,
    pa1 = p.a1,
    pa2 = p.a2;
  const rb0 = r.b0,
    rb1 = r.b1,
    rb2 = r.b2,
    ra1 = r.a1,
    ra2 = r.a2;
  let p1 = 0,
    p2 = 0,
    r1 = 0,
    r2 = 0;
  const segments = bounds.length - 1;
  for (let s = 0; s < segments; s++) {
    const end = bounds[s + 1];
    let sum = 0;
    for (let i = bounds[s]; i < end; i++) {
      const x = signal[i];
      const u = pb0 * x + p1;
      p1 = pb1 * x - pa1 * u + p2;
      p2 = pb2 * x - pa2 * u;
      const y = rb0 * u + r1;
      r1 = rb1 * u - ra1 * y + r2;
      r2 = rb2 * u - ra2 * y;
      sum += y * y;
    }
    energies[s] += weight * sum;
    // A decaying state in silence would pass through subnormal doubles, which are very slow on x86;
    // anything below 1e-30 contributes nothing measurable (< −600 dB), so it is flushed to zero.
    if (Math.abs(p1) < 1e-30 && Math.abs(p2) < 1e-30) p1 = p2 = 0;
    if (Math.abs(r1) < 1e-30 && Math.abs(r2) < 1e-30) r1 = r2 = 0;
  }
}
