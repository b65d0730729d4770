import { sumSquaredLogRatios } from './log-ratio.js';
import { hann } from './power-spectrum.js';
import { type FrameGeometry, type Span, SpanFrames } from './span-frames.js';
import { mcdFrame, melPlan } from './mel-cepstrum.js';
import { claimSpectraArena, releaseSpectraArena } from './spectra-memory.js';

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
 * kept for the next call (see spectraArena, spectra-memory.ts), so a process that has compared a long
 * pair holds up to this much.
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
 * The frames [from, to) of every pair: the part of the distances one thread computes when the frames are
 * split between threads (each frame's numbers depend on that frame alone, and the parts are summed in
 * frame order, so any split gives the same numbers as one session over all the frames).
 */
export interface FrameRange {
  from: number;
  to: number;
}

export const ALL_FRAMES: FrameRange = { from: 0, to: Infinity };

/** Each pair's loudest power bin on each side over some of its frames, at [2j] and [2j + 1] (0 where none). */
export type LoudestBins = Float64Array;

/** Each pair's per-frame distances over a session's frames: LSD and MCD of frame from + i at [2i], [2i + 1]. */
export type FrameDistances = Float64Array[];

/** Frames of a pair of `length` samples in frames of `size` (hop size/2; a shorter pair is one zero-padded frame). */
export function framesOfPair(length: number, size: number): number {
  return length <= 0 ? 0 : length >= size ? Math.floor((length - size) / (size / 2)) + 1 : 1;
}

/**
 * spectralDistances in stages, so that a caller can start the first pass of the pairs it knows (the pair
 * at lag 0) before it knows the others (the aligned pair, after the cross-correlation), and over a range
 * of frames, so that two threads can share the frames. The same numbers as one spectralDistances call over
 * all the pairs: a span is shared with an earlier pair only when that pair's frames already cover it.
 */
export class SpectralSession {
  private readonly geometry: FrameGeometry;
  private readonly spans: SpanFrames[] = [];
  private readonly jobs: PairJob[] = [];
  /** Frames that may still be kept (the cache bytes left, in frames of power spectrum). */
  private budget: number;
  private arenaValues = 0;
  private arena: Float64Array | undefined;

  constructor(
    sampleRate: number,
    cacheBytes = SPECTRA_CACHE_BYTES,
    private readonly range: FrameRange = ALL_FRAMES,
  ) {
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

  /** Adds pairs, whose new spans go through the first pass (this session's frames of them) now. */
  add(pairs: readonly SpectralPair[]): void {
    const { size } = this.geometry;
    const firstNew = this.spans.length;
    for (const pair of pairs) {
      const frames = framesOfPair(pair.length, size);
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
    const arena = claimSpectraArena(this, this.arenaValues, this.arena);
    this.arena = arena;
    for (const span of this.spans) span.place(arena);
    for (const span of this.spans.slice(firstNew)) span.transformAll();
  }

  /** Each pair's loudest bin on each side over this session's frames (after the first pass). */
  loudest(): LoudestBins {
    const loudest = new Float64Array(2 * this.jobs.length);
    this.jobs.forEach((job, j) => {
      const [from, to] = this.framesOf(job);
      loudest[2 * j] = loudestOf(this.spans[job.a].frameMax, from, to);
      loudest[2 * j + 1] = loudestOf(this.spans[job.b].frameMax, from, to);
    });
    return loudest;
  }

  /**
   * The second pass over this session's frames. A pair's floor is from its loudest bins over all its
   * frames, so `loudest` holds every part's (this session's among them): the floor then does not depend on
   * how the frames were split, nor on which other pairs were measured with it.
   */
  frameDistances(loudest: readonly LoudestBins[]): FrameDistances {
    const floors = new Float64Array(2 * this.jobs.length);
    for (let i = 0; i < floors.length; i++) {
      let max = 0;
      for (const part of loudest) if (part[i] > max) max = part[i];
      floors[i] = Math.max(ABSOLUTE_FLOOR, max * RELATIVE_FLOOR);
    }
    const distances = measurePairs(
      this.jobs.map((job) => this.framesOf(job)),
      this.jobs,
      this.spans,
      floors,
      this.geometry,
    );
    this.close();
    return distances;
  }

  /** Frees the shared spectra arena for other sessions (after the second pass, or when the job is dropped). */
  close(): void {
    releaseSpectraArena(this);
  }

  /** The second pass: every pair's distances, in the order they were added (a session over all frames). */
  distances(): SpectralDistances[] {
    return sumFrameDistances([this.frameDistances([this.loudest()])]);
  }

  /** The frames [from, to) of a pair this session measures. */
  private framesOf(job: PairJob): [number, number] {
    const to = Math.min(this.range.to, job.frames);
    return [Math.min(this.range.from, to), to];
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
    const first = Math.min(this.range.from, frames);
    const end = Math.min(this.range.to, frames);
    const stored = Math.min(end - first, this.budget);
    this.budget -= stored;
    const added = new SpanFrames(span, this.geometry, frames, length, first, end, stored, this.arenaValues);
    this.arenaValues += added.arenaValues;
    this.spans.push(added);
    return this.spans.length - 1;
  }
}

/**
 * Every pair's distances from the parts of its frames, given in frame order: each distance is the mean
 * over frames, summed frame by frame in that order (so one part or several give the same bits).
 */
export function sumFrameDistances(parts: readonly FrameDistances[]): SpectralDistances[] {
  const pairs = parts[0]?.length ?? 0;
  const result: SpectralDistances[] = [];
  for (let j = 0; j < pairs; j++) {
    let lsd = 0;
    let mcd = 0;
    let frames = 0;
    for (const part of parts) {
      const values = part[j];
      for (let i = 0; i < values.length; i += 2) {
        lsd += values[i];
        mcd += values[i + 1];
      }
      frames += values.length / 2;
    }
    result.push(frames === 0 ? { lsdDb: NaN, mcdDb: NaN } : { lsdDb: lsd / frames, mcdDb: mcd / frames });
  }
  return result;
}

/** A pair as two span indices and its frame count. */
interface PairJob {
  frames: number;
  a: number;
  b: number;
}

/**
 * Pass 2: every pair's distances frame by frame over its frames [from, to) (ranges[j]), the spectra read
 * through each side's floor (floors[2j], floors[2j + 1] for pair j).
 */
function measurePairs(
  ranges: readonly [number, number][],
  jobs: readonly PairJob[],
  spans: readonly SpanFrames[],
  floors: Float64Array,
  { bins, plan }: FrameGeometry,
): FrameDistances {
  const values = ranges.map(([from, to]) => new Float64Array(2 * (to - from)));
  const first = Math.min(...ranges.map(([from]) => from));
  const end = Math.max(0, ...ranges.map(([, to]) => to));
  for (let frame = first; frame < end; frame++) {
    for (let j = 0; j < jobs.length; j++) {
      const [from, to] = ranges[j];
      if (frame < from || frame >= to) continue;
      const job = jobs[j];
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
      values[j][2 * (frame - from)] = LN_TO_DB * Math.sqrt(sq / bins);
      values[j][2 * (frame - from) + 1] = mcdFrame(plan, melA, melB);
    }
  }
  return values;
}

/** The loudest of frameMax[from .. to) (0 for none). */
function loudestOf(frameMax: Float64Array, from: number, to: number): number {
  let max = 0;
  for (let f = from; f < to; f++) if (frameMax[f] > max) max = frameMax[f];
  return max;
}
