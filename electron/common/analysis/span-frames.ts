import { MEL_BANDS, melLogAmplitude, type MelPlan } from './mel-cepstrum.js';
import { type HannWindow, powerSpectrum } from './power-spectrum.js';

/** A[start + i] (or B's): the samples a pair reads from one signal. */
export interface Span {
  signal: Float32Array;
  start: number;
}

/** The frame geometry every span of one spectralDistances call shares. */
export interface FrameGeometry {
  size: number;
  hop: number;
  bins: number;
  window: HannWindow;
  plan: MelPlan;
}

/**
 * One span's frames [first, end) through the two passes of spectralDistances (a session may measure only
 * some of a span's frames): their power spectra (the first `storedFrames` of them kept in the spectra
 * arena, the others transformed again when read), each frame's loudest bin, and the mel log amplitudes of
 * the frame last asked for. A class with every field set in the constructor, so that
 * V8 sees one shape: closures made per call and fields changing from small integers to doubles made it
 * throw away its optimised code on every call.
 */
export class SpanFrames {
  readonly span: Span;
  readonly geometry: FrameGeometry;
  /** Frames any pair reads from this span, and the longest such pair (a frame's sample count). */
  readonly frames: number;
  readonly length: number;
  /** The frames this span transforms: [first, end). */
  readonly first: number;
  readonly end: number;
  /** Power spectra of frames first .. first + storedFrames − 1, [frame, bin] row-major (first pass). */
  readonly storedFrames: number;
  stored: Float64Array = new Float64Array(0);
  /** Where in the spectra arena this span's kept spectra start, followed by its scratch frame. */
  readonly arenaAt: number;
  /** The loudest bin of each of the `frames` frames (first pass; 0 outside [first, end)). */
  frameMax: Float64Array = new Float64Array(0);
  /** The frame whose raw power spectrum `scratch` holds (−1: none), for frames not stored. */
  private scratchFrame = -1;
  private scratch: Float64Array = new Float64Array(0);
  /** The mel log amplitudes of frame `melFrame` read through floor `melFloor` (second pass), in the arena. */
  private melFrame = -1;
  private melFloor = Number.NaN;
  private melLog: Float64Array = new Float64Array(0);

  constructor(
    span: Span,
    geometry: FrameGeometry,
    frames: number,
    length: number,
    first: number,
    end: number,
    storedFrames: number,
    arenaAt: number,
  ) {
    this.span = span;
    this.geometry = geometry;
    this.frames = frames;
    this.length = length;
    this.first = first;
    this.end = end;
    this.storedFrames = storedFrames;
    this.arenaAt = arenaAt;
  }

  /** Doubles this span takes in the arena: its kept spectra, one scratch frame and its mel log amplitudes. */
  get arenaValues(): number {
    return (this.storedFrames + 1) * this.geometry.bins + MEL_BANDS;
  }

  /**
   * Points the kept spectra, the scratch frame and the mel log amplitudes at `arena` (again after it moved:
   * its values are kept).
   */
  place(arena: Float64Array): void {
    const keptEnd = this.arenaAt + this.storedFrames * this.geometry.bins;
    const scratchEnd = keptEnd + this.geometry.bins;
    this.stored = arena.subarray(this.arenaAt, keptEnd);
    this.scratch = arena.subarray(keptEnd, scratchEnd);
    this.melLog = arena.subarray(scratchEnd, scratchEnd + MEL_BANDS);
  }

  /** First pass: frames [first, end) transformed, the first `storedFrames` of them kept (call place first). */
  transformAll(): void {
    const bins = this.geometry.bins;
    this.scratchFrame = -1;
    this.frameMax = new Float64Array(this.frames);
    for (let frame = this.first; frame < this.end; frame++) {
      const kept = frame - this.first < this.storedFrames;
      this.frameMax[frame] = this.transform(
        frame,
        kept ? this.stored : this.scratch,
        kept ? (frame - this.first) * bins : 0,
      );
    }
  }

  /** Frame `frame`'s power spectrum into out[at ..]; returns its loudest bin. */
  private transform(frame: number, out: Float64Array, at: number): number {
    const { size, hop, window } = this.geometry;
    const offset = frame * hop;
    const count = Math.min(size, this.length - offset);
    return powerSpectrum(this.span.signal, this.span.start + offset, count, window, out, at);
  }

  /** The array holding frame `frame`'s power spectrum, at `offset(frame)`. */
  spectrum(frame: number): Float64Array {
    if (frame - this.first < this.storedFrames) return this.stored;
    if (this.scratchFrame !== frame) {
      this.transform(frame, this.scratch, 0);
      this.scratchFrame = frame;
    }
    return this.scratch;
  }

  offset(frame: number): number {
    return frame - this.first < this.storedFrames ? (frame - this.first) * this.geometry.bins : 0;
  }

  /**
   * Frame `frame`'s mel log amplitudes through `floor`, shared by the pairs whose floor for this span is
   * the same (in compareSignals A's span at lag 0 and aligned, nearly always).
   */
  mel(floor: number, frame: number): Float64Array {
    if (this.melFrame !== frame || this.melFloor !== floor) {
      melLogAmplitude(this.geometry.plan, this.spectrum(frame), this.offset(frame), floor, this.melLog);
      this.melFrame = frame;
      this.melFloor = floor;
    }
    return this.melLog;
  }
}
