/**
 * Mel cepstra for the mel-cepstral distortion.
 *
 * 80 triangular mel filters (HTK mel scale 2595·log10(1 + f/700), 0 Hz to fs/2, peak 1, applied to
 * power), log amplitude L_m = ½·ln(melPower_m) (natural log, as the MCD's 10/ln10 factor assumes),
 * then a DCT scaled so that L_m = c_0 + 2·Σ_n c_n·cos(πn(m+½)/M), i.e. c_n = (1/M)·Σ_m L_m·cos(πn(m+½)/M).
 * With this scaling (1/M)·Σ_m ΔL_m² = Δc_0² + 2·Σ Δc_n² (Parseval), which is what makes
 * (10/ln10)·sqrt(2·Σ Δc_n²) the usual MCD. Order 24: c_1..c_24 are compared, c_0 (level) is not.
 * The DCT is linear, so Δc is taken as the DCT of ΔL (one DCT per frame pair, not two).
 */
import { scaledLogs } from './log-ratio.js';
import { mcdFrameInMemory, type SimdMelBands, simdMelBands } from './mel-simd.js';

export const MEL_BANDS = 80;
const CEPSTRAL_ORDER = 24;
const HALF = MEL_BANDS / 2;
const LN_TO_DB = 10 / Math.LN10;

export interface MelPlan {
  /** Band m uses bins starts[m] .. starts[m] + counts[m] − 1 with weights from weightAt[m]. */
  starts: Int32Array;
  counts: Int32Array;
  weightAt: Int32Array;
  weights: Float64Array;
  /** cos(πn(m+½)/M)/M at [(n − 1)·M/2 + m] for n = 1..order, m < M/2 (the other half mirrors it). */
  dct: Float64Array;
  /** The band sums in WebAssembly SIMD, or null where it cannot be compiled (the JavaScript loop runs). */
  simd: SimdMelBands | null;
  /** Scratch: each band's power, then ΔL_m + ΔL_{M−1−m} and ΔL_m − ΔL_{M−1−m}, m < M/2. */
  bandPower: Float64Array;
  sums: Float64Array;
  differences: Float64Array;
}

const plans = new Map<string, MelPlan>();

export function melPlan(frameSize: number, sampleRate: number): MelPlan {
  const key = `${frameSize}@${sampleRate}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = buildPlan(frameSize, sampleRate);
    plans.set(key, plan);
  }
  return plan;
}

const hzToMel = (f: number): number => 2595 * Math.log10(1 + f / 700);
const melToHz = (m: number): number => 700 * (Math.pow(10, m / 2595) - 1);

function buildPlan(frameSize: number, sampleRate: number): MelPlan {
  const bins = frameSize / 2 + 1;
  const maxMel = hzToMel(sampleRate / 2);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => melToHz((maxMel * i) / (MEL_BANDS + 1)));
  const binHz = sampleRate / frameSize;
  const starts = new Int32Array(MEL_BANDS);
  const counts = new Int32Array(MEL_BANDS);
  const weightAt = new Int32Array(MEL_BANDS);
  const weights: number[] = [];
  for (let m = 0; m < MEL_BANDS; m++) {
    const [lo, mid, hi] = [edges[m], edges[m + 1], edges[m + 2]];
    // A band narrower than one bin (low bands at small frame sizes) gets the nearest bin.
    let first = Math.ceil(lo / binHz);
    let last = Math.min(bins - 1, Math.floor(hi / binHz));
    if (last < first) first = last = Math.min(bins - 1, Math.round(mid / binHz));
    starts[m] = first;
    counts[m] = last - first + 1;
    weightAt[m] = weights.length;
    for (let k = first; k <= last; k++) {
      const f = k * binHz;
      const w = f <= mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid);
      weights.push(first === last ? 1 : Math.max(0, w));
    }
  }
  const dct = new Float64Array(CEPSTRAL_ORDER * HALF);
  for (let n = 1; n <= CEPSTRAL_ORDER; n++) {
    for (let m = 0; m < HALF; m++) {
      dct[(n - 1) * HALF + m] = Math.cos((Math.PI * n * (m + 0.5)) / MEL_BANDS) / MEL_BANDS;
    }
  }
  const bands = { starts, counts, weightAt, weights: Float64Array.from(weights) };
  return {
    ...bands,
    simd: simdMelBands(bands, bins),
    dct,
    bandPower: new Float64Array(MEL_BANDS),
    sums: new Float64Array(HALF),
    differences: new Float64Array(HALF),
  };
}

/**
 * power[at ..]: a power spectrum (bins 0..F/2), each bin read through `floor` (max(p, floor); NaN reads
 * as the floor). Writes L_m = ½·ln(melPower_m) into `out`.
 */
export function melLogAmplitude(
  plan: MelPlan,
  power: Float64Array,
  at: number,
  floor: number,
  out: Float64Array,
): void {
  // `floor + 0` is a double for V8: with `floor` itself, inlined into a caller, the floor-or-bin choice
  // below came out as a boxed number, one allocation per bin (~22 young-generation collections a span).
  const f = floor + 0;
  if (plan.simd?.logAmplitudes(power, at, f, 0.5, out)) return;
  bandSums(plan, power, at, f);
  scaledLogs(plan.bandPower, 0.5, out, MEL_BANDS);
}

/** The JavaScript loop of the band sums (and the edge rule), into plan.bandPower. */
export function bandSums(plan: MelPlan, power: Float64Array, at: number, f: number): void {
  const { starts, counts, weightAt, weights, bandPower } = plan;
  for (let m = 0; m < MEL_BANDS; m++) {
    const first = at + starts[m];
    const w = weightAt[m];
    const count = counts[m];
    // Two partial sums, so that the additions do not all wait on each other.
    let s = 0;
    let s2 = 0;
    let j = 0;
    for (; j + 1 < count; j += 2) {
      const p = power[first + j];
      const p2 = power[first + j + 1];
      s += weights[w + j] * (p > f ? p : f);
      s2 += weights[w + j + 1] * (p2 > f ? p2 : f);
    }
    if (j < count) {
      const p = power[first + j];
      s += weights[w + j] * (p > f ? p : f);
    }
    s += s2;
    // Bins are floored, so s > 0 except for a band whose only bin sits on its edge (weight 0).
    const edge = power[first];
    bandPower[m] = s > 0 ? s : edge > f ? edge : f;
  }
}

/**
 * MCD of one frame pair in dB: (10/ln10)·sqrt(2·Σ_{n=1..24} Δc_n²) with Δc = DCT(L_A − L_B).
 * cos(πn(M−1−m+½)/M) = (−1)^n·cos(πn(m+½)/M), so c_n sums M/2 terms: of ΔL_m + ΔL_{M−1−m} for even n,
 * of ΔL_m − ΔL_{M−1−m} for odd n (half the multiplications of the full 24 × 80 product). Log amplitudes in
 * spectraMemory (spectral.ts keeps them there) take the WebAssembly kernel, others the JavaScript.
 */
export function mcdFrame(plan: MelPlan, logA: Float64Array, logB: Float64Array): number {
  return mcdFrameInMemory(plan.dct, logA, logB) ?? mcdFrameJs(plan, logA, logB);
}

/** mcdFrame in JavaScript (exported for the test that holds the kernel to it). */
export function mcdFrameJs(plan: MelPlan, logA: Float64Array, logB: Float64Array): number {
  const { dct, sums, differences } = plan;
  for (let m = 0; m < HALF; m++) {
    const low = logA[m] - logB[m];
    const high = logA[MEL_BANDS - 1 - m] - logB[MEL_BANDS - 1 - m];
    sums[m] = low + high;
    differences[m] = low - high;
  }
  let sq = 0;
  for (let n = 1; n <= CEPSTRAL_ORDER; n++) {
    const row = (n - 1) * HALF;
    const folded = n % 2 === 0 ? sums : differences;
    // Four partial sums (HALF is a multiple of 4) so the additions do not wait on each other.
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    for (let m = 0; m < HALF; m += 4) {
      c0 += dct[row + m] * folded[m];
      c1 += dct[row + m + 1] * folded[m + 1];
      c2 += dct[row + m + 2] * folded[m + 2];
      c3 += dct[row + m + 3] * folded[m + 3];
    }
    const c = c0 + c1 + (c2 + c3);
    sq += c * c;
  }
  return LN_TO_DB * Math.sqrt(2 * sq);
}
