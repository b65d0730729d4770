import { sumSquaredLogRatios } from './log-ratio.js';
import { hann } from './power-spectrum.js';
import { type FrameGeometry, type Span, SpanFrames } from './span-frames.js';
import { mcdFrame, melPlan } from './mel-cepstrum.js';
import { spectraArena } from './spectra-memory.js';

/**
 * Spectral distances of A[aStart + i] against B[bStart + i], i < length.
 *
 * Frames: a periodic Hann window of F = 2^round(log2(0.04·fs)) samples (~40 ms: 1024 at 24 kHz,
 * 2048 at 48 kHz), hop F/2 (Hann at 50 % overlap weighs every sample alike). Every frame counts,
 * silent ones included. A signal shorter than F is one zero-padded frame. Power spectra are normalised
 * by (Σw)².
 *
 * Floor: each side's power bins are raised to at least that side's loudest bin over the compared frames
 * minus 80 dB (and to at least 1e-12, −120 dB, so that digital silence is finite). This is librosa's
 * `power_to_db(S, ref=1.0, top_db=80)` dynamic range, applied before the distance: what lies more than
 * 80 dB below a side's own peak (dither, a noise floor, the empty band above a resampler's cut-off) is
 * read as the floor on both sides instead of dominating the dB difference. Floors follow each side's
 * level, so a pure gain g still reads |20·log10 g| in every bin and MCD 0.
 *
 * - Log-spectral distance: per frame sqrt(mean over bins 0..F/2 of (10·log10(P_A/P_B))²), in dB,
 *   averaged over frames.
 * - Mel-cepstral distortion: see mel-cepstrum.ts; (10/ln10)·sqrt(2·Σ_{n=1..24}(c_A,n − c_B,n)²) per
 *   frame of the floored spectra, averaged over frames.
 */
export interface SpectralDistances {
  lsdDb: number;
  mcdDb: number;
}

/** A[a.start + i] against B[b.start + i], i < length. */
export interface SpectralPair {
  a: Span;
  b: Span;
  length: number;
}

/** Bins more than this far below a side's loudest bin read as that floor (librosa's top_db default). */
export const DYNAMIC_RANGE_DB = 80;
const RELATIVE_FLOOR = Math.pow(10, -DYNAMIC_RANGE_DB / 10);
const ABSOLUTE_FLOOR = 1e-12;
const LN_TO_DB = 10 / Math.LN10;

export function frameSize(sampleRate: number): number {
  return Math.max(32, Math.pow(2, Math.round(Math.log2(0.04 * sampleRate))));
}

/**
 * Power spectra kept from the first pass for the second, at most this many bytes per call (a 60 s pair
 * at any rate needs ~35 MB for its three spans); frames past it are transformed again in the second
 * pass, so memory stays bounded on long takes and the numbers are the same either way. The storage is
 * kept for the next call (see spectraArena), so a process that has compared a long pair holds up to this much.
 */
export const SPECTRA_CACHE_BYTES = 48 * 1024 * 1024;

/**
 * Distances for several pairs at once. A span shared by two pairs (A at offset 0 at lag 0 and after
 * alignment) is one span. Each span's frames are transformed once (first pass: power spectra, kept up to
 * `cacheBytes`, and each frame's loudest bin, for the floor); the second pass reads the kept spectra
 * through each side's floor (no floored copy) and measures every pair, its logarithms from log-ratio.ts.
 */
export function spectralDistances(
  pairs: readonly SpectralPair[],
  sampleRate: number,
  cacheBytes = SPECTRA_CACHE_BYTES,
): SpectralDistances[] {
  const session = new SpectralSession(sampleRate, cacheBytes);
  session.add(pairs);
  return session.distances();
}

/**
 * spectralDistances in stages, so that a caller can start the first pass of the pairs it knows (the pair
 * at lag 0) before it knows the others (the aligned pair, after the cross-correlation). The same numbers
 * as one spectralDistances call over all the pairs: a span is shared with an earlier pair only when that
 * pair's frames already cover it.
 */
export class SpectralSession {
  private readonly geometry: FrameGeometry;
  private readonly spans: SpanFrames[] = [];
  private readonly jobs: PairJob[] = [];
  /** Frames that may still be kept (the cache bytes left, in frames of power spectrum). */
  private budget: number;
  private arenaValues = 0;

  constructor(sampleRate: number, cacheBytes = SPECTRA_CACHE_BYTES) {
    const size = frameSize(sampleRate);
    this.geometry = {
      size,
      hop: size / 2,
      bins: size / 2 + 1,
      window: hann(size),
      plan: melPlan(size, sampleRate),
    };
    this.budget = Math.floor(cacheBytes / (this.geometry.bins * 8));
  }

  /** Adds pairs, whose new spans go through the first pass now. */
  add(pairs: readonly SpectralPair[]): void {
    const { size, hop } = this.geometry;
    const firstNew = this.spans.length;
    for (const pair of pairs) {
      const frames =
        pair.length <= 0 ? 0 : pair.length >= size ? Math.floor((pair.length - size) / hop) + 1 : 1;
      // Spans are shared when they start at the same sample of the same signal; a pair shorter than a
      // frame (one zero-padded frame) gets spans of its own, since its frame holds fewer samples. In a
      // shared span every frame a pair reads lies inside that pair, so frame f is the same F samples for all.
      const shareable = pair.length >= size;
      this.jobs.push({
        frames,
        a: this.spanIndex(pair.a, shareable, frames, pair.length),
        b: this.spanIndex(pair.b, shareable, frames, pair.length),
      });
    }
    // The arena (kept spectra and a scratch frame per span, read in place by the kernels) grows with the
    // new spans; the earlier spans' views are made again, their values kept.
    const arena = spectraArena(this.arenaValues);
    for (const span of this.spans) span.place(arena);
    for (const span of this.spans.slice(firstNew)) span.transformAll();
  }

  /** The second pass: every pair's distances, in the order they were added. */
  distances(): SpectralDistances[] {
    const { spans, jobs } = this;
    // A pair's floor is from its own frames only, so it does not depend on which other pairs were
    // measured with it.
    const floors = new Float64Array(2 * jobs.length);
    jobs.forEach((job, j) => {
      floors[2 * j] = floorOf(spans[job.a].frameMax, job.frames);
      floors[2 * j + 1] = floorOf(spans[job.b].frameMax, job.frames);
    });
    const sums = measurePairs(jobs, spans, floors, this.geometry);
    return jobs.map((job, j) =>
      job.frames === 0
        ? { lsdDb: NaN, mcdDb: NaN }
        : { lsdDb: sums[2 * j] / job.frames, mcdDb: sums[2 * j + 1] / job.frames },
    );
  }

  private spanIndex(span: Span, shareable: boolean, frames: number, length: number): number {
    const found = shareable
      ? this.spans.findIndex(
          (s) =>
            s.span.signal === span.signal &&
            s.span.start === span.start &&
            s.length >= this.geometry.size &&
            s.frames >= frames,
        )
      : -1;
    if (found >= 0) return found;
    const stored = Math.min(frames, this.budget);
    this.budget -= stored;
    const added = new SpanFrames(span, this.geometry, frames, length, stored, this.arenaValues);
    this.arenaValues += added.arenaValues;
    this.spans.push(added);
    return this.spans.length - 1;
  }
}

/** A pair as two span indices and its frame count. */
interface PairJob {
  frames: number;
  a: number;
  b: number;
}

/**
 * Pass 2: every pair's distances frame by frame, the spectra read through each side's floor (floors[2j],
 * floors[2j + 1] for pair j). Returns Σ over frames of each pair's LSD and MCD, at [2j] and [2j + 1].
 */
function measurePairs(
  jobs: readonly PairJob[],
  spans: readonly SpanFrames[],
  floors: Float64Array,
  { bins, plan }: FrameGeometry,
): Float64Array {
  const sums = new Float64Array(2 * jobs.length);
  const maxFrames = Math.max(0, ...jobs.map((j) => j.frames));
  for (let frame = 0; frame < maxFrames; frame++) {
    for (let j = 0; j < jobs.length; j++) {
      const job = jobs[j];
      if (frame >= job.frames) continue;
      const sa = spans[job.a];
      const sb = spans[job.b];
      const floorA = floors[2 * j];
      const floorB = floors[2 * j + 1];
      const melA = sa.mel(floorA, frame);
      const melB = sb.mel(floorB, frame);
      const sq = sumSquaredLogRatios(
        sa.spectrum(frame),
        sa.offset(frame),
        floorA,
        sb.spectrum(frame),
        sb.offset(frame),
        floorB,
        bins,
      );
      sums[2 * j] += LN_TO_DB * Math.sqrt(sq / bins);
      sums[2 * j + 1] += mcdFrame(plan, melA, melB);
    }
  }
  return sums;
}

/** The floor of a side: its loudest bin over its first `frames` frames − 80 dB, at least −120 dB. */
function floorOf(frameMax: Float64Array, frames: number): number {
  let max = 0;
  for (let f = 0; f < frames; f++) if (frameMax[f] > max) max = frameMax[f];
  return Math.max(ABSOLUTE_FLOOR, max * RELATIVE_FLOOR);
}
