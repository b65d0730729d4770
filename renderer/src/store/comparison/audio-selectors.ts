import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import { buildPeakPyramid, difference, maxAbs, type PeakTier } from '../../lib/peaks.js';
import { computeSpectrogram } from '../../lib/spectrogram.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';

const EMPTY = new Float32Array(0);
const NO_TIERS: PeakTier[] = [];
const diffOf = memoByRef((c: ComparisonResult) => (c.a && c.b ? difference(c.a.samples, c.b.samples) : EMPTY));
const totalLength = (c: ComparisonResult) => Math.max(c.a?.samples.length ?? 0, c.b?.samples.length ?? 0);
const peaksA = memoByRef((c: ComparisonResult) => (c.a ? buildPeakPyramid(c.a.samples, totalLength(c)) : NO_TIERS));
const peaksB = memoByRef((c: ComparisonResult) => (c.b ? buildPeakPyramid(c.b.samples, totalLength(c)) : NO_TIERS));
const peaksD = memoByRef((c: ComparisonResult) => {
  const d = diffOf(c);
  if (d.length === 0) return { tiers: NO_TIERS, scale: 1 };
  // Scaled so the largest difference spans the track; the scale is shown beside it.
  const m = maxAbs(d);
  const scale = m > 0 && Number.isFinite(m) ? 1 / m : 1;
  const scaled = new Float32Array(d.length);
  for (let i = 0; i < d.length; i++) scaled[i] = d[i] * scale;
  return { tiers: buildPeakPyramid(scaled, totalLength(c)), scale };
});
const spectrogramA = memoByRef((c: ComparisonResult) => (c.a ? computeSpectrogram(c.a.samples, c.a.sampleRate) : undefined));
const spectrogramB = memoByRef((c: ComparisonResult) => (c.b ? computeSpectrogram(c.b.samples, c.b.sampleRate) : undefined));

/** Audio-derived views of the comparison on screen (memoised per comparison). */
export const audioSelectors = {
  diffOf,
  hasAudio: (s: StudioState) => Boolean(s.comparison?.a || s.comparison?.b),
  sampleRate: (s: StudioState) => s.comparison?.a?.sampleRate ?? s.comparison?.b?.sampleRate ?? 0,
  /** The longer take, seconds. */
  duration: (s: StudioState) => {
    const c = s.comparison;
    if (!c) return 0;
    return Math.max(c.a ? c.a.samples.length / c.a.sampleRate : 0, c.b ? c.b.samples.length / c.b.sampleRate : 0);
  },
  /** Peak pyramids (level of detail) of A, B and the scaled difference; see buildPeakPyramid. */
  peaksA: (s: StudioState) => (s.comparison ? peaksA(s.comparison) : NO_TIERS),
  peaksB: (s: StudioState) => (s.comparison ? peaksB(s.comparison) : NO_TIERS),
  peaksD: (s: StudioState) => (s.comparison ? peaksD(s.comparison) : { tiers: NO_TIERS, scale: 1 }),
  spectrogramA: (s: StudioState) => (s.comparison ? spectrogramA(s.comparison) : undefined),
  spectrogramB: (s: StudioState) => (s.comparison ? spectrogramB(s.comparison) : undefined),
};
