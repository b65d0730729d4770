/**
 * A − g·B(n + τ): B advanced by the measured lag τ (samples, may be fractional; positive = B is late)
 * and scaled by the least-squares gain g the report found (metrics.gainDb), as the report's matched
 * null does. Where the shifted B has no sample (the ends), the difference is 0. An integer τ is an exact
 * shift; a fractional one interpolates B with a 4-point cubic (Lagrange), which is exact for cubics and
 * keeps speech-band error far below the null depths it is used to show.
 */
export function alignedDifference(a: Float32Array, b: Float32Array, lag: number, gain: number): Float32Array {
  const out = new Float32Array(a.length);
  const whole = Math.floor(lag);
  const frac = lag - whole;
  if (frac < 1e-6) {
    for (let n = 0; n < a.length; n++) {
      const m = n + whole;
      if (m >= 0 && m < b.length) out[n] = a[n] - gain * b[m];
    }
    return out;
  }
  // Lagrange weights for x = frac between samples m (0) and m + 1 (1), from m − 1 .. m + 2.
  const x = frac;
  const w0 = (-x * (x - 1) * (x - 2)) / 6;
  const w1 = ((x + 1) * (x - 1) * (x - 2)) / 2;
  const w2 = (-(x + 1) * x * (x - 2)) / 2;
  const w3 = ((x + 1) * x * (x - 1)) / 6;
  for (let n = 0; n < a.length; n++) {
    const m = n + whole;
    if (m - 1 < 0 || m + 2 >= b.length) continue;
    out[n] = a[n] - gain * (w0 * b[m - 1] + w1 * b[m] + w2 * b[m + 1] + w3 * b[m + 2]);
  }
  return out;
}

/** 10·log10(Σd² / Σa²) over the samples where d was formed (d ≠ 0 or inside the overlap): the null depth shown beside the lane. */
export function nullDepthDb(a: Float32Array, d: Float32Array, from = 0, to = a.length): number {
  let ea = 0;
  let ed = 0;
  for (let i = Math.max(0, from); i < Math.min(to, a.length, d.length); i++) {
    ea += a[i] * a[i];
    ed += d[i] * d[i];
  }
  return 10 * Math.log10(ed / ea);
}
