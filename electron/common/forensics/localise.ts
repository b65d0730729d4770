import { FirstDifferingFrame, frameOfStep, type FrameDivergence } from '../trace/delay-pattern.js';
import type { TraceStep } from '../trace/step-record.js';
import { addCounts, type PairCounts } from './abs-diff.js';
import { differingFrames, firstDifferingSample, frameOfSample } from './audio-divergence.js';
import { compareStep, largestStepDiff, maxStatDiff, type StepDifference } from './compare-step.js';
import { ComparedFieldsTally } from './compared-fields.js';
import type { Divergence, FirstNonFinite, StepComparison } from './divergence.js';
import { DEFAULT_NEAR_TIE_GAP, FirstFlipFinder } from './near-tie.js';
import { DEFAULT_TOLERANCES, type Tolerances } from './tolerances.js';
import type { VocoderChunk } from '../trace/trace-format.js';
import { chunkAudio, placeOfSample, type VocoderChunkReport } from './vocoder-chunks.js';

export interface LocaliseOptions {
  tolerances?: Partial<Omit<Tolerances, 'codes'>>;
  /** Frames per second: gives `timeSec` for a divergence found in the trace. */
  frameRate?: number;
  /** Both renderings, to localise a vocoder-only difference and report the first differing sample. */
  audio?: { a: Float32Array; b: Float32Array; sampleRate: number };
  /** The traces' delay pattern (header `codebookDelays`): gives `frame`, and `timeSec` from that frame. */
  codebookDelays?: readonly number[];
  /** The chunks each side's vocoder made its audio in (header `vocoderChunks`): the audio difference is then told chunk by chunk. */
  vocoderChunks?: { a?: readonly VocoderChunk[]; b?: readonly VocoderChunk[] };
}

/**
 * First-divergence localisation (docs/forensics.md). Steps are matched by number. A step diverges at
 * the first stage that differs (compareStep); a step present on one side only diverges at
 * 'sampled-code' (one run stopped). If every step matches and the audio differs beyond
 * `audioAbs`, the stage is 'vocoder' at the frame of the first differing sample, and frames take the
 * place of steps for `divergedSteps` and re-convergence. Re-convergence: every step after the last
 * divergent one matches, and there is at least one such step. Partial traces: only fields both sides
 * recorded are compared, and `compared` names them and the one-sided ones (compared-fields.ts).
 */
export function localise(stepsA: readonly TraceStep[], stepsB: readonly TraceStep[], options: LocaliseOptions = {}): Divergence {
  const localiser = new Localiser(stepsA.length, stepsB.length, options);
  const steps: StepComparison[] = [];
  for (let i = 0; i < localiser.total; i++) steps.push(localiser.add(stepsA[i], stepsB[i]));
  return localiser.result(steps);
}

/**
 * localise fed one step pair at a time (step 1, 2, … up to the longer run; undefined past a run's end),
 * for traces read as a stream: it keeps what the result needs, not the steps. `add` returns the step's
 * row; `result` takes the rows the caller kept as `steps`.
 */
export class Localiser {
  readonly tolerances: Tolerances;
  readonly total: number;
  /** Every row's maxStatDiff is 0 or null (the verdict's exact-steps test). */
  statsExact = true;
  private step = 0;
  private readonly diverged: number[] = [];
  private first: StepDifference | null = null;
  private largest: NonNullable<Divergence['largestLogitDiff']> | null = null;
  private logitPairs: PairCounts = { finite: 0, nonFinite: 0 };
  private readonly nonFinite: { a: FirstNonFinite | null; b: FirstNonFinite | null } = { a: null, b: null };
  private readonly fields = new ComparedFieldsTally();
  private readonly flips: FirstFlipFinder;
  private readonly frames: FirstDifferingFrame | undefined;

  constructor(
    private readonly stepsA: number,
    private readonly stepsB: number,
    private readonly options: LocaliseOptions = {},
  ) {
    this.tolerances = { ...DEFAULT_TOLERANCES, ...options.tolerances, codes: 'exact' };
    this.total = Math.max(stepsA, stepsB);
    this.flips = new FirstFlipFinder(this.tolerances.nearTieGap ?? DEFAULT_NEAR_TIE_GAP);
    if (options.codebookDelays) this.frames = new FirstDifferingFrame(options.codebookDelays);
  }

  add(a: TraceStep | undefined, b: TraceStep | undefined): StepComparison {
    const step = ++this.step;
    let difference: StepDifference | null;
    if (a && b) difference = compareStep(a, b, this.tolerances);
    else difference = { stage: 'sampled-code', codebook: 0, detail: `step ${step} exists only in ${a ? 'A' : 'B'} (${this.stepsA} vs ${this.stepsB} steps)` };
    if (difference) {
      this.diverged.push(step);
      this.first ??= difference;
    }
    if (a && b) {
      const { largest: d, counts } = largestStepDiff(a, b);
      if (d && (this.largest === null || d.value > this.largest.value)) this.largest = { ...d, step };
      this.logitPairs = addCounts(this.logitPairs, counts);
      this.fields.add(a, b);
      this.flips.add(a, b, step);
    }
    if (a) this.nonFinite.a ??= firstNonFinite(a);
    if (b) this.nonFinite.b ??= firstNonFinite(b);
    this.frames?.add(a?.codes, b?.codes, step);
    const row: StepComparison = {
      step,
      a: a?.logits ?? null,
      b: b?.logits ?? null,
      codesA: a?.codes ?? null,
      codesB: b?.codes ?? null,
      stage: difference?.stage ?? null,
      maxStatDiff: a?.logits && b?.logits ? maxStatDiff(a.logits, b.logits) : null,
    };
    if (row.maxStatDiff !== 0 && row.maxStatDiff !== null) this.statsExact = false;
    const predictor = codePredictorDiff(a, b);
    if (predictor) row.codePredictorDiff = predictor;
    return row;
  }

  /** The divergence over every step added; `steps` are the rows it carries (all of them, or those a stream kept). */
  result(steps: StepComparison[]): Divergence {
    const { options, tolerances, total } = this;
    const result: Divergence = {
      firstStep: null,
      stage: null,
      reconverges: false,
      divergedSteps: this.diverged,
      stepsA: this.stepsA,
      stepsB: this.stepsB,
      tolerances,
      firstNonFinite: this.nonFinite,
      largestLogitDiff: this.largest,
      logitPairs: this.logitPairs,
      audioCompared: options.audio !== undefined,
      compared: this.fields.result(),
      steps,
    };
    if (this.flips.flip) result.flip = this.flips.flip;
    const audio = options.audio;
    const sample = audio ? firstDifferingSample(audio.a, audio.b, tolerances.audioAbs) : null;
    if (sample !== null) result.firstDifferingSample = sample;
    const chunks = audio && options.frameRate ? chunkAudio({ ...audio, frameRate: options.frameRate, audioAbs: tolerances.audioAbs, chunksA: options.vocoderChunks?.a, chunksB: options.vocoderChunks?.b }) : null;
    if (chunks) result.vocoderChunks = chunks;

    let span = total;
    const first = result.divergedSteps[0];
    if (first !== undefined) {
      const d = this.first!;
      Object.assign(result, { firstStep: first, stage: d.stage, detail: d.detail });
      if (d.codebook !== undefined) result.codebook = d.codebook;
      if (options.frameRate) result.timeSec = (first - 1) / options.frameRate;
      const delays = options.codebookDelays;
      if (delays) {
        const frame = delayedFrame(this.frames!.best, delays, first, d.codebook ?? 0);
        if (frame) {
          result.frame = frame;
          if (options.frameRate) result.timeSec = (frame.frame - 1) / options.frameRate;
        }
      }
      if (audio && options.frameRate && sample !== null) result.vocoderFrame = frameOfSample(sample, audio.sampleRate, options.frameRate);
    } else if (audio && sample !== null && total > 0 && options.frameRate) {
      const frames = differingFrames(audio.a, audio.b, tolerances.audioAbs, audio.sampleRate, options.frameRate);
      const frame = frameOfSample(sample, audio.sampleRate, options.frameRate);
      Object.assign(result, {
        firstStep: frame,
        stage: 'vocoder',
        vocoderFrame: frame,
        timeSec: sample / audio.sampleRate,
        divergedSteps: frames,
        detail: `all codes equal; audio ${describeSample(audio.a, audio.b, sample, tolerances.audioAbs)}${chunks ? `; ${chunks.summary.replace(/^audio /, '')}` : ''}${describeLargest(audio.a, audio.b, audio.sampleRate, options.frameRate, chunks)}`,
      });
      span = Math.max(total, Math.ceil((Math.max(audio.a.length, audio.b.length) * options.frameRate) / audio.sampleRate));
    }
    const last = result.divergedSteps[result.divergedSteps.length - 1];
    if (last !== undefined && last < span) {
      result.reconverges = true;
      result.reconvergedAtStep = last + 1;
    }
    return result;
  }
}

/**
 * The frame a delay-pattern divergence first reaches: the earliest frame with a differing code (`byCodes`), or the first
 * divergent step's frame for its codebook when that is earlier (a logit difference before any code flips).
 */
function delayedFrame(byCodes: FrameDivergence | null, delays: readonly number[], step: number, codebook: number) {
  const own = frameOfStep(step, codebook, delays);
  const byStep = own >= 1 ? { frame: own, step, codebook } : null;
  if (byCodes && (!byStep || byCodes.frame < byStep.frame)) return byCodes;
  return byStep ?? byCodes;
}

function describeSample(a: Float32Array, b: Float32Array, i: number, tol: number): string {
  if (i >= a.length || i >= b.length) return `equal for ${i} samples, then one side ends (A ${a.length}, B ${b.length} samples)`;
  const d = Number(Math.abs(a[i] - b[i]).toPrecision(4));
  return `differs from sample ${i}: ${a[i]} vs ${b[i]} (|Δ| ${d} > ${tol})`;
}

/** maxStatDiff of each code-predictor codebook both sides recorded; undefined when a side recorded none. */
function codePredictorDiff(a: TraceStep | undefined, b: TraceStep | undefined): (number | null)[] | undefined {
  const n = Math.min(a?.codePredictorLogits?.length ?? 0, b?.codePredictorLogits?.length ?? 0);
  if (n === 0) return undefined;
  return Array.from({ length: n }, (_, k) => maxStatDiff(a!.codePredictorLogits![k], b!.codePredictorLogits![k]));
}

/**
 * Where the audio differs most (codes equal: a vocoder-only difference such as a streamed vocoder's chunk seams):
 * "; largest |Δ| X at sample I (frame F)", with its chunk and seam when the vocoder's chunks are known, or "" when
 * no finite sample differs.
 */
function describeLargest(a: Float32Array, b: Float32Array, sampleRate: number, frameRate: number, chunks: VocoderChunkReport | null): string {
  let worst = 0;
  let at = -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d > worst) [worst, at] = [d, i];
  }
  if (at < 0) return '';
  const place = chunks ? placeOfSample(chunks, at, sampleRate, frameRate) : '';
  return `; largest |Δ| ${Number(worst.toPrecision(4))} at sample ${at} (frame ${frameOfSample(at, sampleRate, frameRate)}${place ? `, ${place}` : ''})`;
}

/** The first stage of one step with a NaN or an infinity, or null. */
function firstNonFinite(s: TraceStep): FirstNonFinite | null {
  const stages = [['talker', 'talker'], ['codePredictor', 'code-predictor'], ['vocoder', 'vocoder']] as const;
  for (const [key, stage] of stages) {
    const nan = s.nan?.[key] ?? 0;
    const inf = s.inf?.[key] ?? 0;
    if (nan > 0 || inf > 0) return { step: s.step, stage, nan, inf };
  }
  return null;
}
