import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import type { StepRecord } from '../trace/step-record.js';
import { DivergenceStage } from './divergence.js';
import { localise } from './localise.js';
import type { Tolerances } from './tolerances.js';

/**
 * Determinism baseline (`parity compare --baseline`, docs/forensics.md "Determinism baseline"): each
 * profile runs twice with the same request, and run 2 is compared with run 1 at zero tolerance. A
 * deterministic profile repeats bit for bit (every logit statistic, code and non-finite count of every
 * step, and every audio sample); anything else is nondeterminism, listed by step, and set apart from
 * the A-vs-B difference so the two are not confused.
 */
export const SelfCheck = z.object({
  profile: z.string(),
  /** Run 2 repeats run 1 bit for bit: steps and audio. */
  deterministic: z.boolean(),
  /** Steps whose records differ at all (frames when only the audio differs); empty when deterministic. */
  differingSteps: z.array(z.number().int().positive()),
  /** The first of them, where in the step, and what differed (both values). */
  firstStep: z.number().int().positive().nullable(),
  stage: DivergenceStage.nullable(),
  detail: z.string().optional(),
  /** Largest finite run-to-run |Δ| of any logit statistic, and where (null: all equal). */
  largestLogitDiff: z.object({ value: z.number(), step: z.number().int().positive(), field: z.string() }).nullable(),
  /** Largest run-to-run |Δ| of an audio sample over the common length (NaN where one run has NaN). */
  audioMaxAbsDiff: JsonNumber,
  /** The run-to-run difference stays within the comparison's tolerances (codes equal, statistics and audio within). */
  withinTolerance: z.boolean(),
});
export type SelfCheck = z.infer<typeof SelfCheck>;

export const Baseline = z.object({ a: SelfCheck, b: SelfCheck });
export type Baseline = z.infer<typeof Baseline>;

export interface Run {
  steps: readonly StepRecord[];
  audio: Float32Array;
}

const EXACT = { logitAbs: 0, logitRel: 0, audioAbs: 0 };

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = Math.abs(a[i] - b[i]);
    if (Number.isNaN(d)) {
      if (Number.isNaN(a[i]) && Number.isNaN(b[i])) continue;
      return NaN;
    }
    worst = Math.max(worst, d);
  }
  return worst;
}

/** Run 2 against run 1 of one profile: zero tolerance for the listing, the comparison's for `withinTolerance`. */
export function selfCheck(profile: string, run1: Run, run2: Run, tolerances: Tolerances, rates: { sampleRate: number; frameRate: number }): SelfCheck {
  const audio = (r1: Run, r2: Run) => ({ a: r1.audio, b: r2.audio, sampleRate: rates.sampleRate });
  const exact = localise(run1.steps, run2.steps, { tolerances: EXACT, frameRate: rates.frameRate, audio: audio(run1, run2) });
  const loose = localise(run1.steps, run2.steps, { tolerances, frameRate: rates.frameRate, audio: audio(run1, run2) });
  const sameLength = run1.audio.length === run2.audio.length;
  const check: SelfCheck = {
    profile,
    deterministic: exact.firstStep === null && exact.firstDifferingSample === undefined && sameLength,
    differingSteps: exact.divergedSteps,
    firstStep: exact.firstStep,
    stage: exact.stage,
    largestLogitDiff: exact.largestLogitDiff ?? null,
    audioMaxAbsDiff: maxAbsDiff(run1.audio, run2.audio),
    withinTolerance: loose.firstStep === null && loose.firstDifferingSample === undefined,
  };
  if (exact.detail !== undefined) check.detail = exact.detail;
  return check;
}

const list = (steps: number[]): string => (steps.length > 12 ? `${steps.slice(0, 12).join(', ')}, … (${steps.length} in all)` : steps.join(', '));
const small = (x: number): string => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(1) : String(Number(x.toPrecision(3))));

function sideLines(label: 'A' | 'B', c: SelfCheck): string[] {
  if (c.deterministic) return [`${label} (${c.profile}): deterministic: run 2 repeats run 1 bit for bit (steps and audio)`];
  const lines = [
    `${label} (${c.profile}): NONDETERMINISTIC: run 2 differs from run 1 at step${c.differingSteps.length === 1 ? '' : 's'} ${list(c.differingSteps)}` +
      ` (${c.withinTolerance ? 'within' : 'beyond'} the comparison's tolerances)`,
  ];
  if (c.firstStep !== null) lines.push(`  first: step ${c.firstStep}, ${c.stage}${c.detail ? `: ${c.detail}` : ''}`);
  const big = c.largestLogitDiff;
  lines.push(`  largest logit |Δ| ${big ? `${small(big.value)} at step ${big.step} (${big.field})` : '0'}; audio max |Δ| ${small(c.audioMaxAbsDiff)}`);
  return lines;
}

/**
 * The baseline in words: each profile against itself, then what that means for the A-vs-B divergence
 * found at `abFirstStep` (null when A and B did not diverge).
 */
export function baselineLines(b: Baseline, abFirstStep: number | null): string[] {
  const lines = [...sideLines('A', b.a), ...sideLines('B', b.b)];
  const noisy = [b.a, b.b].filter((c) => !c.deterministic && !c.withinTolerance && c.firstStep !== null);
  if (abFirstStep === null) return lines;
  if (noisy.length === 0) {
    lines.push(`A vs B: each profile repeats itself within tolerance, so the divergence at step ${abFirstStep} is between the profiles, not run-to-run noise`);
  } else {
    const first = Math.min(...noisy.map((c) => c.firstStep!));
    lines.push(
      first <= abFirstStep
        ? `A vs B: a profile already differs from itself beyond tolerance at step ${first} (≤ ${abFirstStep}): the A-vs-B divergence may be nondeterminism`
        : `A vs B: the divergence at step ${abFirstStep} comes before any run-to-run difference beyond tolerance (first at step ${first})`,
    );
  }
  return lines;
}
