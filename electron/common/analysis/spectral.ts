import { realFft } from './fft.js';
import { MEL_BANDS, mcdFrame, melLogAmplitude, melPlan } from './mel-cepstrum.js';

/**
 * Spectral distances of A[aStart + i] against B[bStart + i], i < length.
 *
 * Frames: a periodic Hann window of F = 2^round(log2(0.04·fs)) samples (~40 ms: 1024 at 24 kHz,
 * 2048 at 48 kHz), hop F/2 (Hann at 50 % overlap weighs every sample alike); every frame counts, silent ones included (they add 0 when both sides are
 * silent). A signal shorter than F is one zero-padded frame. Power spectra are normalised by (Σw)²
 * and floored at 1e-12 (−120 dB) so that silence is finite.
 *
 * - Log-spectral distance: per frame sqrt(mean over bins 0..F/2 of (10·log10(P_A/P_B))²), in dB,
 *   averaged over frames.
 * - Mel-cepstral distortion: see mel-cepstrum.ts; (10/ln10)·sqrt(2·Σ_{n=1..24}(c_A,n − c_B,n)²) per
 *   frame, averaged over frames.
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

const POWER_FLOOR = 1e-12;
const LN_TO_DB = 10 / Math.LN10;

export function frameSize(sampleRate: number): number {
  return Math.max(32, Math.pow(2, Math.round(Math.log2(0.04 * sampleRate))));
}

/**
 * Distances for several pairs at once, walking their frames in step so that a span shared by two
 * pairs (A at offset 0 at lag 0 and after alignment) is transformed once per frame.
 */
export function spectralDistances(pairs: readonly SpectralPair[], sampleRate: number): SpectralDistances[] {
  const size = frameSize(sampleRate);
  const hop = size / 2;
  const bins = size / 2 + 1;
  const window = hann(size);
  const plan = melPlan(size, sampleRate);
  // Spans are shared when they start at the same sample of the same signal; a pair shorter than a
  // frame (one zero-padded frame) gets spans of its own, since its frame holds fewer samples.
  const spans: { span: Span; features: FrameFeatures }[] = [];
  const spanIndex = (span: Span, shareable: boolean): number => {
    const found = shareable
      ? spans.findIndex((s) => s.span.signal === span.signal && s.span.start === span.start)
      : -1;
    if (found >= 0) return found;
    spans.push({
      span,
      features: { frame: -1, power: new Float64Array(bins), melLog: new Float64Array(MEL_BANDS) },
    });
    return spans.length - 1;
  };
  const jobs = pairs.map((pair) => {
    const shareable = pair.length >= size;
    return {
      length: pair.length,
      frames: pair.length <= 0 ? 0 : shareable ? Math.floor((pair.length - size) / hop) + 1 : 1,
      a: spanIndex(pair.a, shareable),
      b: spanIndex(pair.b, shareable),
      lsd: 0,
      mcd: 0,
    };
  });
  const features = (index: number, offset: number, count: number, frame: number): FrameFeatures => {
    const { span, features: f } = spans[index];
    if (f.frame !== frame) {
      powerSpectrum(span.signal, span.start + offset, count, window, f.power);
      melLogAmplitude(plan, f.power, f.melLog);
      f.frame = frame;
    }
    return f;
  };
  const maxFrames = Math.max(0, ...jobs.map((j) => j.frames));
  for (let frame = 0; frame < maxFrames; frame++) {
    const offset = frame * hop;
    for (const job of jobs) {
      if (frame >= job.frames) continue;
      const count = Math.min(size, job.length - offset);
      const fa = features(job.a, offset, count, frame);
      const fb = features(job.b, offset, count, frame);
      job.lsd += lsdFrame(fa.power, fb.power);
      job.mcd += mcdFrame(plan, fa.melLog, fb.melLog);
    }
  }
  return jobs.map((j) =>
    j.frames === 0 ? { lsdDb: NaN, mcdDb: NaN } : { lsdDb: j.lsd / j.frames, mcdDb: j.mcd / j.frames },
  );
}

interface FrameFeatures {
  frame: number;
  power: Float64Array;
  melLog: Float64Array;
}

function lsdFrame(powerA: Float64Array, powerB: Float64Array): number {
  let sq = 0;
  for (let k = 0; k < powerA.length; k++) {
    const d = Math.log(powerA[k] / powerB[k]);
    sq += d * d;
  }
  return LN_TO_DB * Math.sqrt(sq / powerA.length);
}

/** Windowed frame → floored, normalised power spectrum (bins 0..F/2) in `out`. */
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
  out[0] = buf[0] * buf[0] * norm + POWER_FLOOR;
  out[half] = buf[1] * buf[1] * norm + POWER_FLOOR;
  for (let k = 1; k < half; k++) {
    const re = buf[2 * k];
    const im = buf[2 * k + 1];
    out[k] = (re * re + im * im) * norm + POWER_FLOOR;
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
