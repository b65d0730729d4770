import { InputError } from '../../common/errors.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { GREEDY } from '../../common/sampling/types.js';
import type { LogitStats, StepRecord } from '../../common/trace/step-record.js';
import { maxTextTokens, type BundleManifest } from '../bundle/manifest.js';
import type { SynthesisRequest, SynthesisResult } from '../types.js';
import { smokeError } from './smoke-export.js';

/** The frames of the greedy run: enough for the prefill and a few decode steps through both KV caches. */
export const AGREEMENT_FRAMES = 4;

/**
 * How far eager and graph may differ. They are the same weights run two ways (KV grown by
 * concatenation, optimisations off / fixed buffers written in place, full ORT optimisation), so only
 * summation order differs: measured 1.2e-6 (fp32) and 1.1e-3 (fp16) relative on the demo bundle's
 * logits. 1e-3 is far above the fp32 figure and far below what a wrong KV write, an ignored mask or
 * other weights give (order 1); fp16 rounds every op to 11 bits, so its bound is 20× wider.
 */
export const AGREEMENT_TOLERANCE = { fp32: 1e-3, fp16: 2e-2 } as const;
type Precision = keyof typeof AGREEMENT_TOLERANCE;

type Synthesize = (req: SynthesisRequest) => Promise<SynthesisResult>;

/** The values compared in one logit row, by rank: max, mean, std and the top-5 logits. */
const statValues = (s: LogitStats): number[] => [s.max, s.mean, s.std, ...s.top5.map((t) => t.logit)];

/**
 * Largest |a − b| / max(1, |a|) over the row's statistics; Infinity when a row's shape differs or a value
 * is not finite (NaN compares false with any tolerance, so "within NaN relative" would pass).
 */
function relDiff(a: LogitStats, b: LogitStats): number {
  const x = statValues(a);
  const y = statValues(b);
  if (x.length !== y.length) return Infinity;
  const diffs = x.map((v, i) => Math.abs(v - y[i]) / Math.max(1, Math.abs(v)));
  return diffs.every(Number.isFinite) ? Math.max(0, ...diffs) : Infinity;
}

/** The stages where a run from finite seeded inputs produced NaN or Inf, e.g. "talker 12 NaN, vocoder 3 Inf". */
function nonFiniteStages(r: SynthesisResult): string {
  const parts: string[] = [];
  for (const stage of Object.keys(r.numerics.nan) as (keyof SynthesisResult['numerics']['nan'])[]) {
    const nan = r.numerics.nan[stage];
    const inf = r.numerics.inf[stage];
    if (nan + inf > 0) parts.push(`${stage} ${[nan > 0 ? `${nan} NaN` : '', inf > 0 ? `${inf} Inf` : ''].filter(Boolean).join(' and ')}`);
  }
  return parts.join(', ');
}

/** The text of about AGREEMENT_FRAMES frames: repeated "a" (one byte, one token in most vocabularies). */
function agreementText(m: BundleManifest): string {
  return 'a'.repeat(Math.max(1, Math.min(maxTextTokens(m.text), Math.ceil(AGREEMENT_FRAMES / m.text.framesPerChar))));
}

/** The precisions whose eager and graph exports (talker, code predictor) and vocoder all exist. */
export function agreementPrecisions(m: BundleManifest): Precision[] {
  const has = (p: Precision) =>
    [m.talker.exports, m.codePredictor?.exports ?? m.encoder?.exports ?? {}].every((e) => `eager-${p}` in e && `graph-${p}` in e) && p in m.vocoder.exports;
  return (['fp32', 'fp16'] as const).filter(has);
}

interface Disagreement {
  step: number;
  network: 'talker' | 'code-predictor';
  codebook: number;
  diff: number;
}

/** The first step whose talker or code-predictor logits differ beyond `tol`, and the largest difference seen before it. */
function firstDisagreement(a: StepRecord[], b: StepRecord[], tol: number): { bad?: Disagreement; steps: number; worst: number; tie?: number } {
  let worst = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const step = a[i].step;
    const talker = relDiff(a[i].logits, b[i].logits);
    if (talker > tol) return { bad: { step, network: 'talker', codebook: 0, diff: talker }, steps: i, worst };
    worst = Math.max(worst, talker);
    const cpA = a[i].codePredictorLogits ?? [];
    const cpB = b[i].codePredictorLogits ?? [];
    for (let j = 0; j < cpA.length; j++) {
      // Once a code differs (a near tie), later rows are fed other inputs: compare no further.
      if (a[i].codes[j] !== b[i].codes[j]) return { steps: i, worst, tie: step };
      const cp = relDiff(cpA[j], cpB[j]);
      if (cp > tol) return { bad: { step, network: 'code-predictor', codebook: j + 1, diff: cp }, steps: i, worst };
      worst = Math.max(worst, cp);
    }
    if (a[i].codes.join() !== b[i].codes.join()) return { steps: i + 1, worst, tie: step };
  }
  return { steps: Math.min(a.length, b.length), worst };
}

/**
 * A short greedy run of the eager and the graph profile through the real engine: the talker and code
 * predictor logits must agree step by step within AGREEMENT_TOLERANCE. Returns the report line.
 */
export async function checkEagerGraphAgreement(m: BundleManifest, synthesize: Synthesize, precision: Precision): Promise<string> {
  const text = agreementText(m);
  const suffix = precision === 'fp16' ? ',precision=fp16' : '';
  const run = (preset: string) => synthesize({ text, profile: parseProfile(`${preset}${suffix}`), seed: 0, sampling: GREEDY });
  let eager: SynthesisResult;
  try {
    eager = await run('eager');
  } catch (error) {
    if (error instanceof InputError) return `eager vs graph (${precision}): not compared, the text "${text}" is refused: ${error.message}`;
    throw error;
  }
  const graph = await run('graph');
  for (const [preset, r] of [['eager', eager], ['graph', graph]] as const) {
    const stages = nonFiniteStages(r);
    if (stages) {
      throw smokeError(`the ${preset}-${precision} run, greedy on "${text}" (finite inputs, seed 0), produced non-finite values: ${stages}; fix: find the weights or the op that gives them (parity compare --drill names the first node)`);
    }
  }
  const tol = AGREEMENT_TOLERANCE[precision];
  const { bad, steps, worst, tie } = firstDisagreement(eager.steps, graph.steps, tol);
  if (bad) {
    const key = (preset: string) => `${preset}-${precision}`;
    // Without a code predictor every codebook's row comes from the talker's one call.
    const network = bad.network === 'talker' ? m.talker : (m.codePredictor ?? m.talker);
    const files = `${key('eager')} ${network.exports[key('eager')]?.file} vs ${key('graph')} ${network.exports[key('graph')]?.file}`;
    const row = bad.network === 'talker' ? 'logits' : `logits of codebook ${bad.codebook}`;
    throw smokeError(
      `eager and graph disagree at step ${bad.step} in the ${bad.network} (${files}), greedy on "${text}": ${row} differ by ${bad.diff.toPrecision(3)} relative (tolerance ${tol}); ` +
        'fix: the graph export must compute what the eager one does with the same weights — write K/V at row position_ids, attend only where attention_mask is 1 (docs/bundle-format.md, "talker — graph export")',
    );
  }
  const how = tie === undefined ? 'codes identical' : `codes identical until a near tie at step ${tie}`;
  return `eager vs graph (${precision}): greedy on "${text}", ${steps} of ${eager.steps.length} steps compared, ${how}; logits within ${worst.toExponential(1)} relative (tolerance ${tol})`;
}
