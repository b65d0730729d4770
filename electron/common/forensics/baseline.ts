import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import type { StepRecord } from '../trace/step-record.js';
import { AbsDiffFold, nothingFiniteWords, PairCounts } from './abs-diff.js';
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
  /** Largest finite run-to-run |Δ| of any logit statistic, and where (null: all finite ones equal; see logitPairs). */
  largestLogitDiff: z.object({ value: z.number(), step: z.number().int().positive(), field: z.string() }).nullable(),
  /** Logit-statistic pairs compared with both values finite, and with a NaN or infinity (abs-diff.ts); absent in older reports. */
  logitPairs: PairCounts.optional(),
  /**
   * Largest run-to-run |Δ| of an audio sample over the common length: NaN where one run has NaN and the
   * other not, or where no sample pair was finite (audioPairs.finite 0: nothing measured).
   */
  audioMaxAbsDiff: JsonNumber,
  /** Audio sample pairs compared with both values finite, and with a NaN or infinity; absent in older reports. */
  audioPairs: PairCounts.optional(),
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

function audioDiff(a: Float32Array, b: Float32Array): AbsDiffFold {
  const fold = new AbsDiffFold();
  for (let i = 0; i < Math.min(a.length, b.length); i++) fold.add(a[i], b[i]);
  return fold;
}

/** Run 2 against run 1 of one profile: zero tolerance for the listing, the comparison's for `withinTolerance`. */
export function selfCheck(profile: string, run1: Run, run2: Run, tolerances: Tolerances, rates: { sampleRate: number; frameRate: number }): SelfCheck {
  const both = { a: run1.audio, b: run2.audio, sampleRate: rates.sampleRate };
  const exact = localise(run1.steps, run2.steps, { tolerances: EXACT, frameRate: rates.frameRate, audio: both });
  const loose = localise(run1.steps, run2.steps, { tolerances, frameRate: rates.frameRate, audio: both });
  const sameLength = run1.audio.length === run2.audio.length;
  const audio = audioDiff(run1.audio, run2.audio);
  const check: SelfCheck = {
    profile,
    deterministic: exact.firstStep === null && exact.firstDifferingSample === undefined && sameLength,
    differingSteps: exact.divergedSteps,
    firstStep: exact.firstStep,
    stage: exact.stage,
    largestLogitDiff: exact.largestLogitDiff ?? null,
    logitPairs: exact.logitPairs ?? { finite: 0, nonFinite: 0 },
    audioMaxAbsDiff: audio.value(),
    audioPairs: audio.counts,
    withinTolerance: loose.firstStep === null && loose.firstDifferingSample === undefined,
  };
  if (exact.detail !== undefined) check.detail = exact.detail;
  return check;
}

const list = (steps: number[]): string => (steps.length > 12 ? `${steps.slice(0, 12).join(', ')}, … (${steps.length} in all)` : steps.join(', '));
const small = (x: number): string => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(1) : String(Number(x.toPrecision(3))));

/** The largest run-to-run logit |Δ|, or that nothing finite was compared: never a bare 0 over NaNs. */
function logitWords(c: SelfCheck): string {
  const big = c.largestLogitDiff;
  if (big) return `largest logit |Δ| ${small(big.value)} at step ${big.step} (${big.field})`;
  const nothing = nothingFiniteWords('logit statistics', c.logitPairs);
  if (nothing) return nothing;
  const skipped = c.logitPairs?.nonFinite ?? 0;
  return skipped > 0 ? `largest finite logit |Δ| 0 (${skipped} non-finite not compared)` : 'largest logit |Δ| 0';
}

function sideLines(label: 'A' | 'B', c: SelfCheck): string[] {
  if (c.deterministic) return [`${label} (${c.profile}): deterministic: run 2 repeats run 1 bit for bit (steps and audio)`];
  const lines = [
    `${label} (${c.profile}): NONDETERMINISTIC: run 2 differs from run 1 at step${c.differingSteps.length === 1 ? '' : 's'} ${list(c.differingSteps)}` +
      ` (${c.withinTolerance ? 'within' : 'beyond'} the comparison's tolerances)`,
  ];
  if (c.firstStep !== null) lines.push(`  first: step ${c.firstStep}, ${c.stage}${c.detail ? `: ${c.detail}` : ''}`);
  lines.push(`  ${logitWords(c)}; ${nothingFiniteWords('audio samples', c.audioPairs) ?? `audio max |Δ| ${small(c.audioMaxAbsDiff)}`}`);
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
