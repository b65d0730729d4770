import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import { alignedDifference, nullDepthDb } from '../../lib/aligned-difference.js';
import { reportLagReliable } from '../../../../electron/common/report/lag-reliability.js';
import { maxAbs } from '../../../../electron/common/analysis/levels.js';
import { buildPeakPyramid, difference, type PeakTier } from '../../../../electron/common/draw/peaks.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';

const EMPTY = new Float32Array(0);
const NO_TIERS: PeakTier[] = [];
const totalLength = (c: ComparisonResult) => Math.max(c.a?.samples.length ?? 0, c.b?.samples.length ?? 0);
// Keyed by the sample arrays, not the comparison: an import's result arrives as a new comparison holding
// the arrays already on screen (comparison-slice.ts showMeasuring), whose pyramids and raw difference stand.
const pyramids = new WeakMap<Float32Array, { total: number; tiers: PeakTier[] }>();
function pyramidOf(samples: Float32Array, total: number): PeakTier[] {
  const hit = pyramids.get(samples);
  if (hit?.total === total) return hit.tiers;
  const tiers = buildPeakPyramid(samples, total);
  pyramids.set(samples, { total, tiers });
  return tiers;
}
const peaksA = memoByRef((c: ComparisonResult) => (c.a ? pyramidOf(c.a.samples, totalLength(c)) : NO_TIERS));
const peaksB = memoByRef((c: ComparisonResult) => (c.b ? pyramidOf(c.b.samples, totalLength(c)) : NO_TIERS));
const differences = new WeakMap<Float32Array, { b: Float32Array; d: Float32Array }>();
const diffOf = memoByRef((c: ComparisonResult) => {
  if (!c.a || !c.b) return EMPTY;
  const hit = differences.get(c.a.samples);
  if (hit?.b === c.b.samples) return hit.d;
  const d = difference(c.a.samples, c.b.samples);
  differences.set(c.a.samples, { b: c.b.samples, d });
  return d;
});

/** How B is aligned to A for the aligned difference: the report's lag (samples, sub-sample) and gain, and whether the lag is reliable. */
export interface Alignment {
  lag: number;
  gain: number;
  reliable: boolean;
}

const num = (v: unknown): number => (typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN);

const alignment = memoByRef((c: ComparisonResult): Alignment | undefined => {
  const m = c.report.metrics as { fractionalLagSamples?: unknown; lagSamples?: unknown; gainDb?: unknown; xcorrPeak?: unknown; lagReliable?: boolean } | undefined;
  if (!m) return undefined;
  const lag = Number.isFinite(num(m.fractionalLagSamples)) ? num(m.fractionalLagSamples) : num(m.lagSamples);
  const gainDb = num(m.gainDb);
  if (!Number.isFinite(lag) || !Number.isFinite(gainDb)) return undefined;
  // gainDb is 20·log10|g|; a polarity-inverted B (negative peak) needs a negative gain.
  const sign = num(m.xcorrPeak) < 0 ? -1 : 1;
  return { lag, gain: sign * 10 ** (gainDb / 20), reliable: reportLagReliable({ lagReliable: m.lagReliable, xcorrPeak: num(m.xcorrPeak) }) };
});

/** A difference as the lane and D playback use it: the samples, the lane's pyramid scaled to fill it, the null depth. */
export interface DifferenceView {
  samples: Float32Array;
  aligned: boolean;
  /** Pyramid of the samples (peaks clamped to ±1, as a difference of full-scale takes rarely exceeds). */
  tiers: PeakTier[];
  /** Gain that makes the largest |difference| span the lane (shown beside it). */
  scale: number;
  /** RMS of the difference relative to A, dB, over the whole take. */
  nullDb: number;
}

function differenceView(c: ComparisonResult, samples: Float32Array, aligned: boolean): DifferenceView {
  if (samples.length === 0) return { samples, aligned, tiers: NO_TIERS, scale: 1, nullDb: NaN };
  const m = maxAbs(samples);
  const scale = m > 0 && Number.isFinite(m) ? 1 / m : 1;
  return { samples, aligned, tiers: buildPeakPyramid(samples, totalLength(c)), scale, nullDb: c.a ? nullDepthDb(c.a.samples, samples) : NaN };
}

const rawViews = new WeakMap<Float32Array, DifferenceView>();
const rawView = memoByRef((c: ComparisonResult) => {
  const d = diffOf(c);
  const view = rawViews.get(d) ?? differenceView(c, d, false);
  rawViews.set(d, view);
  return view;
});
const alignedView = memoByRef((c: ComparisonResult): DifferenceView | undefined => {
  const al = alignment(c);
  if (!c.a || !c.b || !al?.reliable) return undefined;
  return differenceView(c, alignedDifference(c.a.samples, c.b.samples, al.lag, al.gain), true);
});
const NO_DIFF: DifferenceView = { samples: EMPTY, aligned: false, tiers: NO_TIERS, scale: 1, nullDb: NaN };

/** Audio-derived views of the comparison on screen (memoised per comparison). */
export const audioSelectors = {
  hasAudio: (s: StudioState) => Boolean(s.comparison?.a || s.comparison?.b),
  sampleRate: (s: Pick<StudioState, 'comparison'>) => s.comparison?.a?.sampleRate ?? s.comparison?.b?.sampleRate ?? 0,
  /** The longer take, seconds. */
  duration: (s: StudioState) => {
    const c = s.comparison;
    if (!c) return 0;
    return Math.max(c.a ? c.a.samples.length / c.a.sampleRate : 0, c.b ? c.b.samples.length / c.b.sampleRate : 0);
  },
  /** Peak pyramids (level of detail) of A and B; see buildPeakPyramid. */
  peaksA: (s: Pick<StudioState, 'comparison'>) => (s.comparison ? peaksA(s.comparison) : NO_TIERS),
  peaksB: (s: Pick<StudioState, 'comparison'>) => (s.comparison ? peaksB(s.comparison) : NO_TIERS),
  alignment: (s: StudioState) => (s.comparison ? alignment(s.comparison) : undefined),
  /**
   * The difference on screen and in D playback: B aligned by the measured lag and gain when asked and
   * the lag is reliable (lag-reliability.ts), else raw A − B at lag 0.
   */
  difference: (s: Pick<StudioState, 'comparison' | 'diffAligned'>): DifferenceView => {
    const c = s.comparison;
    if (!c) return NO_DIFF;
    return (s.diffAligned ? alignedView(c) : undefined) ?? rawView(c);
  },
};
