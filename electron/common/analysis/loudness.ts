import { InputError } from '../errors.js';
import { accumulateKWeightedEnergy, kWeightingCoefficients } from './k-weighting.js';

/**
 * Loudness per ITU-R BS.1770-4 / EBU R128.
 *
 * - Each channel is K-weighted (k-weighting.ts, coefficients derived for the actual sample rate) and
 *   its mean square is taken over 100 ms segments; segment s covers samples
 *   [round(s·fs/10), round((s+1)·fs/10)), so 44.1 kHz and odd rates are handled too. A trailing
 *   partial segment is not measured (the standard measures complete blocks only).
 * - Channels are combined as BS.1770 says: the sum of per-channel weighted powers, never a downmix.
 *   Weights (BS.1770-4 Table 3): 1.0 for L, R, C; 1.41 for the surrounds. With 5 channels the order
 *   L, R, C, Ls, Rs is assumed; with 6 the ITU 5.1 order L, R, C, LFE, Ls, Rs, and the LFE is left out
 *   (weight 0). Any other count: every channel 1.0. Pass `weights` to say otherwise.
 * - Gating blocks are 400 ms (4 segments) with 75 % overlap (a new block every segment). Integrated
 *   loudness keeps blocks above the absolute gate (−70 LUFS), then those above the relative gate
 *   (mean loudness of the kept blocks − 10 LU). L = −0.691 + 10·log10(Σ weighted mean squares).
 * - Nothing left after gating (silence, or under 400 ms of audio) gives −Infinity, never NaN; a NaN
 *   sample gives NaN.
 * - Loudness range (EBU Tech 3342): the 3 s short-term loudness every 100 ms (complete windows only),
 *   gated at −70 LUFS and then 20 LU below the power mean of what is left; LRA = the 95th minus the
 *   10th percentile of the rest (nearest rank on the sorted values, as libebur128 picks them:
 *   index round((n − 1)·p)). libebur128 itself steps its short-term windows by 1 s, ffmpeg by 100 ms
 *   as here, so on programmes whose loudness moves the three differ by a few tenths of an LU.
 */

export const SEGMENT_MS = 100;
export const SHORT_TERM_WINDOW_MS = 3000;
const BLOCK_SEGMENTS = 4;
const SHORT_TERM_SEGMENTS = SHORT_TERM_WINDOW_MS / SEGMENT_MS;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const LRA_RELATIVE_GATE_LU = -20;
const LRA_LOW_PERCENTILE = 0.1;
const LRA_HIGH_PERCENTILE = 0.95;
const LOUDNESS_OFFSET = -0.691;

export interface LoudnessOptions {
  /** Per-channel weights G_i; default as described above. */
  weights?: readonly number[];
}

/** Default BS.1770-4 channel weights for a channel count (see the module comment). */
function channelWeights(count: number): number[] {
  if (count === 5) return [1, 1, 1, 1.41, 1.41];
  if (count === 6) return [1, 1, 1, 0, 1.41, 1.41];
  return new Array<number>(count).fill(1);
}

/** Whole 100 ms segments in a take (a last partial segment is not measured). */
function segmentCount(length: number, sampleRate: number): number {
  return Math.floor(length / ((sampleRate * SEGMENT_MS) / 1000) + 1e-9);
}

/** Whether a take of `length` samples holds one 400 ms gating block; without one, integrated loudness is −∞. */
export function hasGatingBlock(length: number, sampleRate: number): boolean {
  return segmentCount(length, sampleRate) >= BLOCK_SEGMENTS;
}

/** Energy of each 100 ms segment: Σ over channels of G_i·Σ y_i² (K-weighted), and its length. */
export interface SegmentEnergies {
  energies: Float64Array;
  lengths: Float64Array;
}

export function segmentEnergies(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: LoudnessOptions = {},
): SegmentEnergies {
  checkInput(channels, sampleRate);
  const weights = options.weights ?? channelWeights(channels.length);
  if (weights.length !== channels.length) {
    throw new InputError(`loudness: ${weights.length} channel weights given for ${channels.length} channels`);
  }
  const perSegment = (sampleRate * SEGMENT_MS) / 1000;
  const count = segmentCount(channels[0].length, sampleRate);
  const bounds = new Int32Array(count + 1);
  const lengths = new Float64Array(count);
  for (let s = 0; s <= count; s++) bounds[s] = Math.round(s * perSegment);
  for (let s = 0; s < count; s++) lengths[s] = bounds[s + 1] - bounds[s];
  const energies = new Float64Array(count);
  const filter = kWeightingCoefficients(sampleRate);
  channels.forEach((channel, i) => {
    if (weights[i] !== 0) accumulateKWeightedEnergy(channel, filter, weights[i], bounds, energies);
  });
  return { energies, lengths };
}

/** Integrated loudness (LUFS) of one programme: channels[i] is channel i, all the same length. */
export function integratedLoudness(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: LoudnessOptions = {},
): number {
  return integratedFromSegments(segmentEnergies(channels, sampleRate, options));
}

/**
 * Short-term loudness (LUFS), one value per 100 ms: value k is measured over the 3 s window that
 * ends at (k+1)·100 ms. The first 29 windows are shorter than 3 s (they start at 0) so that clips
 * under 3 s still get a curve; −Infinity where the window is digital silence.
 */
export function shortTermLoudness(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: LoudnessOptions = {},
): Float64Array {
  return shortTermFromSegments(segmentEnergies(channels, sampleRate, options));
}

/** Integrated and short-term loudness from one K-weighting pass (what a report needs). */
export function measureLoudness(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: LoudnessOptions = {},
): { integrated: number; shortTerm: Float64Array } {
  const segments = segmentEnergies(channels, sampleRate, options);
  return { integrated: integratedFromSegments(segments), shortTerm: shortTermFromSegments(segments) };
}

export function integratedFromSegments({ energies, lengths }: SegmentEnergies): number {
  const blocks = energies.length - BLOCK_SEGMENTS + 1;
  if (blocks <= 0) return -Infinity;
  const power = new Float64Array(blocks);
  for (let j = 0; j < blocks; j++) {
    let e = 0;
    let n = 0;
    for (let s = j; s < j + BLOCK_SEGMENTS; s++) {
      e += energies[s];
      n += lengths[s];
    }
    power[j] = e / n;
  }
  if (power.some(Number.isNaN)) return NaN;
  // Gates compared in the power domain: l > Γ  ⇔  z > 10^((Γ − offset)/10).
  const absoluteThreshold = loudnessToPower(ABSOLUTE_GATE_LUFS);
  const absoluteMean = gatedMean(power, absoluteThreshold);
  if (!(absoluteMean > 0)) return -Infinity;
  const relativeThreshold = absoluteMean * Math.pow(10, RELATIVE_GATE_LU / 10);
  return powerToLoudness(gatedMean(power, Math.max(absoluteThreshold, relativeThreshold)));
}

/** Loudness range (LU, EBU Tech 3342; module comment): 0 when fewer than two windows pass the gates. */
export function loudnessRangeFromSegments({ energies, lengths }: SegmentEnergies): number {
  const windows = energies.length - SHORT_TERM_SEGMENTS + 1;
  if (windows <= 0) return 0;
  const power = new Float64Array(windows);
  for (let k = 0; k < windows; k++) {
    let e = 0;
    let n = 0;
    for (let s = k; s < k + SHORT_TERM_SEGMENTS; s++) {
      e += energies[s];
      n += lengths[s];
    }
    power[k] = e / n;
  }
  if (power.some(Number.isNaN)) return NaN;
  const absoluteThreshold = loudnessToPower(ABSOLUTE_GATE_LUFS);
  const absoluteMean = gatedMean(power, absoluteThreshold);
  if (!(absoluteMean > 0)) return 0;
  const threshold = Math.max(absoluteThreshold, absoluteMean * Math.pow(10, LRA_RELATIVE_GATE_LU / 10));
  const kept = power.filter((p) => p > threshold).sort();
  if (kept.length < 2) return 0;
  const at = (p: number) => kept[Math.round((kept.length - 1) * p)];
  return powerToLoudness(at(LRA_HIGH_PERCENTILE)) - powerToLoudness(at(LRA_LOW_PERCENTILE));
}

export function shortTermFromSegments({ energies, lengths }: SegmentEnergies): Float64Array {
  const out = new Float64Array(energies.length);
  for (let k = 0; k < energies.length; k++) {
    // Summed afresh per window (30 adds): a running sum would leave a residue after loud passages
    // and silence would not read exactly −Infinity.
    let e = 0;
    let n = 0;
    for (let s = Math.max(0, k - SHORT_TERM_SEGMENTS + 1); s <= k; s++) {
      e += energies[s];
      n += lengths[s];
    }
    out[k] = powerToLoudness(e / n);
  }
  return out;
}

function powerToLoudness(power: number): number {
  return LOUDNESS_OFFSET + 10 * Math.log10(power);
}

function loudnessToPower(lufs: number): number {
  return Math.pow(10, (lufs - LOUDNESS_OFFSET) / 10);
}

function gatedMean(power: Float64Array, threshold: number): number {
  let sum = 0;
  let count = 0;
  for (let j = 0; j < power.length; j++) {
    if (power[j] > threshold) {
      sum += power[j];
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

function checkInput(channels: readonly Float32Array[], sampleRate: number): void {
  if (!(Number.isFinite(sampleRate) && sampleRate > 0)) {
    throw new InputError(`loudness: sample rate must be a positive number, found ${sampleRate}`);
  }
  if (channels.length === 0) throw new InputError('loudness: no channels given');
  const length = channels[0].length;
  channels.forEach((channel, i) => {
    if (channel.length !== length) {
      throw new InputError(`loudness: channel ${i} has ${channel.length} samples, channel 0 has ${length}`);
    }
  });
}
