import { firstDifferingFrame, frameOfStep } from '../trace/delay-pattern.js';
import type { TraceStep } from '../trace/step-record.js';
import { differingFrames, firstDifferingSample, frameOfSample } from './audio-divergence.js';
import { compareStep, largestStepDiff, maxStatDiff, type StepDifference } from './compare-step.js';
import { comparedFields } from './compared-fields.js';
import type { Divergence, FirstNonFinite, StepComparison } from './divergence.js';
import { DEFAULT_NEAR_TIE_GAP, firstCodeFlip } from './near-tie.js';
import { DEFAULT_TOLERANCES, type Tolerances } from './tolerances.js';

export interface LocaliseOptions {
  tolerances?: Partial<Omit<Tolerances, 'codes'>>;
  /** Frames per second: gives `timeSec` for a divergence found in the trace. */
  frameRate?: number;
  /** Both renderings, to localise a vocoder-only difference and report the first differing sample. */
  audio?: { a: Float32Array; b: Float32Array; sampleRate: number };
  /** The traces' delay pattern (header `codebookDelays`): gives `frame`, and `timeSec` from that frame. */
  codebookDelays?: readonly number[];
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
  const tolerances: Tolerances = { ...DEFAULT_TOLERANCES, ...options.tolerances, codes: 'exact' };
  const total = Math.max(stepsA.length, stepsB.length);
  const steps: StepComparison[] = [];
  const differences = new Map<number, StepDifference>();
  let largest: Divergence['largestLogitDiff'] = null;
  for (let i = 0; i < total; i++) {
    const a = stepsA[i];
    const b = stepsB[i];
    let difference: StepDifference | null;
    if (a && b) difference = compareStep(a, b, tolerances);
    else difference = { stage: 'sampled-code', codebook: 0, detail: `step ${i + 1} exists only in ${a ? 'A' : 'B'} (${stepsA.length} vs ${stepsB.length} steps)` };
    if (difference) differences.set(i + 1, difference);
    const d = a && b ? largestStepDiff(a, b) : null;
    if (d && (largest === null || d.value > largest.value)) largest = { ...d, step: i + 1 };
    steps.push({
      step: i + 1,
      a: a?.logits ?? null,
      b: b?.logits ?? null,
      codesA: a?.codes ?? null,
      codesB: b?.codes ?? null,
      stage: difference?.stage ?? null,
      maxStatDiff: a?.logits && b?.logits ? maxStatDiff(a.logits, b.logits) : null,
    });
  }

  const result: Divergence = {
    firstStep: null,
    stage: null,
    reconverges: false,
    divergedSteps: [...differences.keys()],
    stepsA: stepsA.length,
    stepsB: stepsB.length,
    tolerances,
    firstNonFinite: { a: firstNonFinite(stepsA), b: firstNonFinite(stepsB) },
    largestLogitDiff: largest,
    audioCompared: options.audio !== undefined,
    compared: comparedFields(stepsA, stepsB),
    steps,
  };
  const flip = firstCodeFlip(stepsA, stepsB, tolerances.nearTieGap ?? DEFAULT_NEAR_TIE_GAP);
  if (flip) result.flip = flip;
  const audio = options.audio;
  const sample = audio ? firstDifferingSample(audio.a, audio.b, tolerances.audioAbs) : null;
  if (sample !== null) result.firstDifferingSample = sample;

  let span = total;
  const first = result.divergedSteps[0];
  if (first !== undefined) {
    const d = differences.get(first)!;
    Object.assign(result, { firstStep: first, stage: d.stage, detail: d.detail });
    if (d.codebook !== undefined) result.codebook = d.codebook;
    if (options.frameRate) result.timeSec = (first - 1) / options.frameRate;
    const delays = options.codebookDelays;
    if (delays) {
      const frame = delayedFrame(stepsA, stepsB, delays, first, d.codebook ?? 0);
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
      detail: `all codes equal; audio ${describeSample(audio.a, audio.b, sample, tolerances.audioAbs)}`,
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

/**
 * The frame a delay-pattern divergence first reaches: the earliest frame with a differing code, or the first
 * divergent step's frame for its codebook when that is earlier (a logit difference before any code flips).
 */
function delayedFrame(stepsA: readonly TraceStep[], stepsB: readonly TraceStep[], delays: readonly number[], step: number, codebook: number) {
  const byCodes = firstDifferingFrame(stepsA.map((s) => s.codes), stepsB.map((s) => s.codes), delays);
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

function firstNonFinite(steps: readonly TraceStep[]): FirstNonFinite | null {
  const stages = [['talker', 'talker'], ['codePredictor', 'code-predictor'], ['vocoder', 'vocoder']] as const;
  for (const s of steps) {
    for (const [key, stage] of stages) {
      const nan = s.nan?.[key] ?? 0;
      const inf = s.inf?.[key] ?? 0;
      if (nan > 0 || inf > 0) return { step: s.step, stage, nan, inf };
    }
  }
  return null;
}
