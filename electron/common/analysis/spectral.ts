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

interface SpanState {
  span: Span;
  /** The frame whose raw power spectrum `power` holds (−1: none yet). */
  frame: number;
  power: Float64Array;
  /** The loudest bin of each frame (first pass). */
  frameMax: Float64Array;
  /** `power` floored at `floor`, and its mel log amplitudes, for frame `flooredFrame` (second pass). */
  flooredFrame: number;
  floor: number;
  floored: Float64Array;
  melLog: Float64Array;
}

/**
 * Distances for several pairs at once, walking their frames in step so that a span shared by two
 * pairs (A at offset 0 at lag 0 and after alignment) is transformed once per frame and pass. Two passes:
 * the first finds each side's loudest bin over the pair's frames (for the floor), the second measures.
 */
export function spectralDistances(pairs: readonly SpectralPair[], sampleRate: number): SpectralDistances[] {
  const size = frameSize(sampleRate);
  const hop = size / 2;
  const bins = size / 2 + 1;
  const window = hann(size);
  const plan = melPlan(size, sampleRate);
  const frameCount = (pair: SpectralPair) =>
    pair.length <= 0 ? 0 : pair.length >= size ? Math.floor((pair.length - size) / hop) + 1 : 1;
  // Spans are shared when they start at the same sample of the same signal; a pair shorter than a
  // frame (one zero-padded frame) gets spans of its own, since its frame holds fewer samples.
  const spans: SpanState[] = [];
  const spanIndex = (span: Span, shareable: boolean, frames: number): number => {
    const found = shareable
      ? spans.findIndex((s) => s.span.signal === span.signal && s.span.start === span.start)
      : -1;
    if (found >= 0) {
      if (spans[found].frameMax.length < frames) spans[found].frameMax = new Float64Array(frames);
      return found;
    }
    spans.push({
      span,
      frame: -1,
      power: new Float64Array(bins),
      frameMax: new Float64Array(frames),
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
      length: pair.length,
      frames,
      a: spanIndex(pair.a, shareable, frames),
      b: spanIndex(pair.b, shareable, frames),
      floorA: 0,
      floorB: 0,
      lsd: 0,
      mcd: 0,
    };
  });
  const power = (index: number, offset: number, count: number, frame: number): Float64Array => {
    const s = spans[index];
    if (s.frame !== frame) {
      powerSpectrum(s.span.signal, s.span.start + offset, count, window, s.power);
      s.frame = frame;
    }
    return s.power;
  };
  const maxFrames = Math.max(0, ...jobs.map((j) => j.frames));
  // A span's floored spectrum and mel amplitudes are shared by the pairs whose floor for it is the same
  // (in compareSignals A's span at lag 0 and aligned, nearly always).
  const floored = (index: number, floor: number, offset: number, count: number, frame: number): SpanState => {
    const s = spans[index];
    if (s.flooredFrame !== frame || s.floor !== floor) {
      applyFloor(power(index, offset, count, frame), floor, s.floored);
      melLogAmplitude(plan, s.floored, s.melLog);
      s.flooredFrame = frame;
      s.floor = floor;
    }
    return s;
  };
  const walk = (
    visit: (
      job: (typeof jobs)[number],
      a: number,
      b: number,
      offset: number,
      count: number,
      frame: number,
    ) => void,
  ) => {
    for (const s of spans) s.frame = -1;
    for (let frame = 0; frame < maxFrames; frame++) {
      const offset = frame * hop;
      for (const job of jobs) {
        if (frame < job.frames) visit(job, job.a, job.b, offset, Math.min(size, job.length - offset), frame);
      }
    }
  };
  // Pass 1: each span's loudest bin per frame; a pair's floor is from its own frames only, so it does
  // not depend on which other pairs were measured with it.
  walk((_job, a, b, offset, count, frame) => {
    spans[a].frameMax[frame] = maxOf(power(a, offset, count, frame));
    spans[b].frameMax[frame] = maxOf(power(b, offset, count, frame));
  });
  for (const job of jobs) {
    job.floorA = floorOf(spans[job.a].frameMax, job.frames);
    job.floorB = floorOf(spans[job.b].frameMax, job.frames);
  }
  // Pass 2: floored spectra, their distances.
  walk((job, a, b, offset, count, frame) => {
    const fa = floored(a, job.floorA, offset, count, frame);
    const fb = floored(b, job.floorB, offset, count, frame);
    job.lsd += lsdFrame(fa.floored, fb.floored);
    job.mcd += mcdFrame(plan, fa.melLog, fb.melLog);
  });
  return jobs.map((j) =>
    j.frames === 0 ? { lsdDb: NaN, mcdDb: NaN } : { lsdDb: j.lsd / j.frames, mcdDb: j.mcd / j.frames },
  );
}

function maxOf(values: Float64Array): number {
  let max = 0;
  for (let k = 0; k < values.length; k++) if (values[k] > max) max = values[k];
  return max;
}

/** The floor of a side: its loudest bin over its first `frames` frames − 80 dB, at least −120 dB. */
function floorOf(frameMax: Float64Array, frames: number): number {
  let max = 0;
  for (let f = 0; f < frames; f++) if (frameMax[f] > max) max = frameMax[f];
  return Math.max(ABSOLUTE_FLOOR, max * RELATIVE_FLOOR);
}

function applyFloor(power: Float64Array, floor: number, out: Float64Array): void {
  for (let k = 0; k < power.length; k++) out[k] = power[k] > floor ? power[k] : floor;
}

function lsdFrame(powerA: Float64Array, powerB: Float64Array): number {
  let sq = 0;
  for (let k = 0; k < powerA.length; k++) {
    const d = Math.log(powerA[k] / powerB[k]);
    sq += d * d;
  }
  return LN_TO_DB * Math.sqrt(sq / powerA.length);
}

/** Windowed frame → normalised power spectrum (bins 0..F/2) in `out`. */
function powerSpectrum(
  x: Float32Array,
  start: number,
  count: number,
  window: Float64Array & { sum: number },
  out: Float64Array,
): void {
  const size = window.length;
  const fft = realFft(size);
  const buf = fft.buffer();
  for (let i = 0; i < count; i++) buf[i] = x[start + i] * window[i];
  if (count < size) buf.fill(0, count);
  fft.forwardInPlace();
  const norm = 1 / (window.sum * window.sum);
  const half = size / 2;
  out[0] = buf[0] * buf[0] * norm;
  out[half] = buf[1] * buf[1] * norm;
  for (let k = 1; k < half; k++) {
    const re = buf[2 * k];
    const im = buf[2 * k + 1];
    out[k] = (re * re + im * im) * norm;
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
