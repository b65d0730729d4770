import { realFft } from './fft.js';
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
 * pass, so memory stays bounded on long takes and the numbers are the same either way.
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
  /** `power` floored at `floor`, and its mel log amplitudes, for frame `flooredFrame` (second pass). */
  flooredFrame: number;
  floor: number;
  floored: Float64Array;
  melLog: Float64Array;
}

/**
 * Distances for several pairs at once. A span shared by two pairs (A at offset 0 at lag 0 and after
 * alignment) is one span. Each span's frames are transformed once (first pass: power spectra, kept up to
 * SPECTRA_CACHE_BYTES, and each frame's loudest bin, for the floor); the second pass floors the kept
 * spectra and measures every pair.
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
      flooredFrame: -1,
      floor: NaN,
      floored: new Float64Array(bins),
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
  const transform = (s: SpanState, frame: number, out: Float64Array, at: number): void => {
    const offset = frame * hop;
    powerSpectrum(s.span.signal, s.span.start + offset, Math.min(size, s.length - offset), window, out, at);
  };
  // Pass 1: each span's frames transformed once; the first ones kept; each frame's loudest bin.
  let budget = Math.floor(cacheBytes / (bins * 8));
  for (const s of spans) {
    s.storedFrames = Math.min(s.frames, budget);
    budget -= s.storedFrames;
    s.stored = new Float64Array(s.storedFrames * bins);
    s.frameMax = new Float64Array(s.frames);
    for (let frame = 0; frame < s.frames; frame++) {
      const stored = frame < s.storedFrames;
      const out = stored ? s.stored : s.scratch;
      const at = stored ? frame * bins : 0;
      transform(s, frame, out, at);
      s.frameMax[frame] = maxOf(out, at, bins);
    }
  }
  // A pair's floor is from its own frames only, so it does not depend on which other pairs were
  // measured with it.
  for (const job of jobs) {
    job.floorA = floorOf(spans[job.a].frameMax, job.frames);
    job.floorB = floorOf(spans[job.b].frameMax, job.frames);
  }

  // A span's floored spectrum and mel amplitudes are shared by the pairs whose floor for it is the same
  // (in compareSignals A's span at lag 0 and aligned, nearly always).
  const floored = (s: SpanState, floor: number, frame: number): SpanState => {
    if (s.flooredFrame !== frame || s.floor !== floor) {
      if (frame < s.storedFrames) applyFloor(s.stored, frame * bins, floor, s.floored);
      else {
        if (s.scratchFrame !== frame) {
          transform(s, frame, s.scratch, 0);
          s.scratchFrame = frame;
        }
        applyFloor(s.scratch, 0, floor, s.floored);
      }
      melLogAmplitude(plan, s.floored, s.melLog);
      s.flooredFrame = frame;
      s.floor = floor;
    }
    return s;
  };
  // Pass 2: floored spectra, their distances, frame by frame so that shared floored spectra are reused.
  const maxFrames = Math.max(0, ...jobs.map((j) => j.frames));
  for (let frame = 0; frame < maxFrames; frame++) {
    for (const job of jobs) {
      if (frame >= job.frames) continue;
      const fa = floored(spans[job.a], job.floorA, frame);
      const fb = floored(spans[job.b], job.floorB, frame);
      job.lsd += lsdFrame(fa.floored, fb.floored);
      job.mcd += mcdFrame(plan, fa.melLog, fb.melLog);
    }
  }
  return jobs.map((j) =>
    j.frames === 0 ? { lsdDb: NaN, mcdDb: NaN } : { lsdDb: j.lsd / j.frames, mcdDb: j.mcd / j.frames },
  );
}

function maxOf(values: Float64Array, at: number, count: number): number {
  let max = 0;
  for (let k = at; k < at + count; k++) if (values[k] > max) max = values[k];
  return max;
}

/** The floor of a side: its loudest bin over its first `frames` frames − 80 dB, at least −120 dB. */
function floorOf(frameMax: Float64Array, frames: number): number {
  let max = 0;
  for (let f = 0; f < frames; f++) if (frameMax[f] > max) max = frameMax[f];
  return Math.max(ABSOLUTE_FLOOR, max * RELATIVE_FLOOR);
}

/** out[k] = max(power[at + k], floor) for k < out.length. */
function applyFloor(power: Float64Array, at: number, floor: number, out: Float64Array): void {
  for (let k = 0; k < out.length; k++) {
    const p = power[at + k];
    out[k] = p > floor ? p : floor;
  }
}

function lsdFrame(powerA: Float64Array, powerB: Float64Array): number {
  let sq = 0;
  for (let k = 0; k < powerA.length; k++) {
    const d = Math.log(powerA[k] / powerB[k]);
    sq += d * d;
  }
  return LN_TO_DB * Math.sqrt(sq / powerA.length);
}

/** Windowed frame → normalised power spectrum (bins 0..F/2) in out[at ..]. */
function powerSpectrum(
  x: Float32Array,
  start: number,
  count: number,
  window: Float64Array & { sum: number },
  out: Float64Array,
  at: number,
): void {
  const size = window.length;
  const fft = realFft(size);
  const buf = fft.buffer();
  for (let i = 0; i < count; i++) buf[i] = x[start + i] * window[i];
  if (count < size) buf.fill(0, count);
  fft.forwardInPlace();
  const norm = 1 / (window.sum * window.sum);
  const half = size / 2;
  out[at] = buf[0] * buf[0] * norm;
  out[at + half] = buf[1] * buf[1] * norm;
  for (let k = 1; k < half; k++) {
    const re = buf[2 * k];
    const im = buf[2 * k + 1];
    out[at + k] = (re * re + im * im) * norm;
  }
}

const windows = new Map<number, Float64Array & { sum: number }>();

function hann(size: number): Float64Array & { sum: number } {
  let w: (Float64Array & { sum: number }) | undefined = windows.get(size);
  if (!w) {
    const values = new Float64Array(size);
    let sum = 0;
    for (let i = 0; i < size; i++) {
      values[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
      sum += values[i];
    }
    w = Object.assign(values, { sum });
    windows.set(size, w);
  }
  return w;
}
