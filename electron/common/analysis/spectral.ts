import { sumSquaredLogRatios } from './log-ratio.js';
import { hann, powerSpectrum } from './power-spectrum.js';
import { MEL_BANDS, mcdFrame, melLogAmplitude, melPlan } from './mel-cepstrum.js';

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
export interface Span {
  signal: Float32Array;
  start: number;
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
 * kept for the next call (see keptSpectra), so a process that has compared a long pair holds up to this much.
 */
export const SPECTRA_CACHE_BYTES = 48 * 1024 * 1024;

interface SpanState {
  span: Span;
  /** Frames any pair reads from this span, and the longest such pair (a frame's sample count). */
  frames: number;
  length: number;
  /** Power spectra of the first `storedFrames` frames, [frame, bin] row-major (first pass). */
  stored: Float64Array;
  storedFrames: number;
  /** The frame whose raw power spectrum `scratch` holds (−1: none), for frames not stored. */
  scratchFrame: number;
  scratch: Float64Array;
  /** The loudest bin of each frame (first pass). */
  frameMax: Float64Array;
  /** The mel log amplitudes of frame `melFrame` read through floor `melFloor` (second pass). */
  melFrame: number;
  melFloor: number;
  melLog: Float64Array;
}

/**
 * Distances for several pairs at once. A span shared by two pairs (A at offset 0 at lag 0 and after
 * alignment) is one span. Each span's frames are transformed once (first pass: power spectra, kept up to
 * SPECTRA_CACHE_BYTES, and each frame's loudest bin, for the floor); the second pass reads the kept
 * spectra through each side's floor (no floored copy) and measures every pair, its logarithms from
 * log-ratio.ts's table.
 */
export function spectralDistances(
  pairs: readonly SpectralPair[],
  sampleRate: number,
  cacheBytes = SPECTRA_CACHE_BYTES,
): SpectralDistances[] {
  const size = frameSize(sampleRate);
  const hop = size / 2;
  const bins = size / 2 + 1;
  const window = hann(size);
  const plan = melPlan(size, sampleRate);
  const frameCount = (pair: SpectralPair) =>
    pair.length <= 0 ? 0 : pair.length >= size ? Math.floor((pair.length - size) / hop) + 1 : 1;
  // Spans are shared when they start at the same sample of the same signal; a pair shorter than a
  // frame (one zero-padded frame) gets spans of its own, since its frame holds fewer samples. In a
  // shared span every frame a pair reads lies inside that pair, so frame f is the same F samples for all.
  const spans: SpanState[] = [];
  const spanIndex = (span: Span, shareable: boolean, frames: number, length: number): number => {
    const found = shareable
      ? spans.findIndex(
          (s) => s.span.signal === span.signal && s.span.start === span.start && s.length >= size,
        )
      : -1;
    if (found >= 0) {
      spans[found].frames = Math.max(spans[found].frames, frames);
      spans[found].length = Math.max(spans[found].length, length);
      return found;
    }
    spans.push({
      span,
      frames,
      length,
      stored: new Float64Array(0),
      storedFrames: 0,
      scratchFrame: -1,
      scratch: new Float64Array(bins),
      frameMax: new Float64Array(0),
      melFrame: -1,
      melFloor: NaN,
      melLog: new Float64Array(MEL_BANDS),
    });
    return spans.length - 1;
  };
  const jobs = pairs.map((pair) => {
    const frames = frameCount(pair);
    const shareable = pair.length >= size;
    return {
      frames,
      a: spanIndex(pair.a, shareable, frames, pair.length),
      b: spanIndex(pair.b, shareable, frames, pair.length),
      floorA: 0,
      floorB: 0,
      lsd: 0,
      mcd: 0,
    };
  });
  /** Frame `frame` of s: its power spectrum into out[at ..], and its loudest bin returned. */
  const transform = (s: SpanState, frame: number, out: Float64Array, at: number): number => {
    const offset = frame * hop;
    return powerSpectrum(s.span.signal, s.span.start + offset, Math.min(size, s.length - offset), window, out, at);
  };
  // Pass 1: each span's frames transformed once; the first ones kept; each frame's loudest bin.
  let budget = Math.floor(cacheBytes / (bins * 8));
  let keptFrames = 0;
  for (const s of spans) {
    s.storedFrames = Math.min(s.frames, budget);
    budget -= s.storedFrames;
    keptFrames += s.storedFrames;
  }
  const kept = keptSpectra(keptFrames * bins);
  let keptAt = 0;
  for (const s of spans) {
    s.stored = kept.subarray(keptAt, keptAt + s.storedFrames * bins);
    keptAt += s.storedFrames * bins;
    s.frameMax = new Float64Array(s.frames);
    for (let frame = 0; frame < s.frames; frame++) {
      const stored = frame < s.storedFrames;
      s.frameMax[frame] = transform(s, frame, stored ? s.stored : s.scratch, stored ? frame * bins : 0);
    }
  }
  // A pair's floor is from its own frames only, so it does not depend on which other pairs were
  // measured with it.
  for (const job of jobs) {
    job.floorA = floorOf(spans[job.a].frameMax, job.frames);
    job.floorB = floorOf(spans[job.b].frameMax, job.frames);
  }

  // Frame `frame` of s lies in the kept spectra at frame·bins, or else in s.scratch at 0 (transformed
  // again, once per frame).
  const spectrumOf = (s: SpanState, frame: number): Float64Array => {
    if (frame < s.storedFrames) return s.stored;
    if (s.scratchFrame !== frame) {
      transform(s, frame, s.scratch, 0);
      s.scratchFrame = frame;
    }
    return s.scratch;
  };
  const offsetOf = (s: SpanState, frame: number): number => (frame < s.storedFrames ? frame * bins : 0);
  // A span's mel amplitudes are shared by the pairs whose floor for it is the same (in compareSignals
  // A's span at lag 0 and aligned, nearly always).
  const melOf = (s: SpanState, floor: number, frame: number): Float64Array => {
    if (s.melFrame !== frame || s.melFloor !== floor) {
      melLogAmplitude(plan, spectrumOf(s, frame), offsetOf(s, frame), floor, s.melLog);
      s.melFrame = frame;
      s.melFloor = floor;
    }
    return s.melLog;
  };
  // Pass 2: every pair's distances frame by frame, the spectra read through each side's floor.
  const maxFrames = Math.max(0, ...jobs.map((j) => j.frames));
  for (let frame = 0; frame < maxFrames; frame++) {
    for (const job of jobs) {
      if (frame >= job.frames) continue;
      const sa = spans[job.a];
      const sb = spans[job.b];
      const melA = melOf(sa, job.floorA, frame);
      const melB = melOf(sb, job.floorB, frame);
      const powerA = spectrumOf(sa, frame);
      const powerB = spectrumOf(sb, frame);
      const atA = offsetOf(sa, frame);
      const atB = offsetOf(sb, frame);
      const sq = sumSquaredLogRatios(powerA, atA, job.floorA, powerB, atB, job.floorB, bins);
      job.lsd += LN_TO_DB * Math.sqrt(sq / bins);
      job.mcd += mcdFrame(plan, melA, melB);
    }
  }
  return jobs.map((j) =>
    j.frames === 0 ? { lsdDb: NaN, mcdDb: NaN } : { lsdDb: j.lsd / j.frames, mcdDb: j.mcd / j.frames },
  );
}

/**
 * The kept spectra's storage, reused by the next call (it grows to the largest size asked, at most
 * SPECTRA_CACHE_BYTES): a fresh 35 MB array per call cost more than the first pass's FFTs, most of it
 * the kernel mapping and zeroing new pages.
 */
let keptStorage = new Float64Array(0);
function keptSpectra(values: number): Float64Array {
  if (keptStorage.length < values) keptStorage = new Float64Array(values);
  return keptStorage;
}

/** The floor of a side: its loudest bin over its first `frames` frames − 80 dB, at least −120 dB. */
function floorOf(frameMax: Float64Array, frames: number): number {
  let max = 0;
  for (let f = 0; f < frames; f++) if (frameMax[f] > max) max = frameMax[f];
  return Math.max(ABSOLUTE_FLOOR, max * RELATIVE_FLOOR);
}
