import { num } from '../report/format/numbers.js';
import { isDegenerate, type AudioCheck } from '../report/audio-check.js';
import type { Verdict } from '../report/report.js';
import { nothingFiniteWords } from './abs-diff.js';
import { comparedLine } from './compared-fields.js';
import type { Divergence, StepComparison } from './divergence.js';
import type { TeacherForcedDrift } from './drift.js';
import type { CodeFlip } from './near-tie.js';
import { verdictWords } from './verdict.js';

/** A small difference in scientific notation (9.5e-7), a larger one with 2 significant digits. */
const small = (x: number): string => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(1) : String(Number(x.toPrecision(2))));

const n4 = (x: number | undefined | null): string => (x === undefined || x === null ? '—' : num(x, 4));

function stepName(step: number): string {
  return step === 1 ? 'step 1 (prefill)' : step === 2 ? 'step 2 (first decode step)' : `step ${step}`;
}

/** Plain sentences on the verdict and the first divergence, for a terminal and report.md. */
export function divergenceLines(verdict: Verdict, d: Divergence, teacherForced?: TeacherForcedDrift, audio?: AudioCheck): string[] {
  const t = d.tolerances;
  const degenerate = isDegenerate(audio);
  const noAudio = d.audioCompared === false || degenerate;
  const lines = [`Verdict: ${verdictWords(verdict, d, teacherForced, audio)}${d.audioCompared === false ? ' (over the traces only: audio not compared)' : ''}`];
  const compared = d.compared ? comparedLine(d.compared) : null;
  if (compared) lines.push(compared);
  const codes = !d.compared || d.compared.fields.includes('codes') ? ', codes exact' : ', codes not compared';
  if (d.firstStep === null) {
    const audioWords = noAudio ? 'audio not compared' : `audio within ${t.audioAbs}`;
    lines.push(d.firstDifferingSample !== undefined
      ? `Audio differs from sample ${d.firstDifferingSample} (no step trace to localise it)`
      : `No divergence: ${d.stepsA} steps compared${codes}, logit statistics within ${t.logitAbs}, ${audioWords}`);
    const big = d.largestLogitDiff;
    if (big) lines.push(`Largest logit |Δ|: ${small(big.value)} at step ${big.step} (${big.field}), within ${t.logitAbs}${t.logitRel ? ` + ${t.logitRel}·|x|` : ''}`);
    const pairs = d.logitPairs;
    const nothing = nothingFiniteWords('logit statistics', pairs);
    if (nothing) lines.push(`Logit statistics: ${nothing}, so "within ${t.logitAbs}" measured no difference`);
    else if (pairs && pairs.nonFinite > 0) {
      lines.push(`Logit statistics: ${pairs.nonFinite} of ${pairs.finite + pairs.nonFinite} non-finite (NaN matches NaN but measures nothing; |Δ| is measured over the ${pairs.finite} finite ones), so not identical`);
    }
  } else {
    const where = [stepName(d.firstStep), `stage ${d.stage}`];
    if (d.codebook !== undefined) where.push(`codebook ${d.codebook}`);
    if (d.frame) {
      const delay = d.codebookDelays?.[d.frame.codebook] ?? 0;
      where.push(`frame ${d.frame.frame} (codebook ${d.frame.codebook} at step ${d.frame.step}, emitted ${delay} step${delay === 1 ? '' : 's'} late)`);
    }
    // Only a vocoder divergence is located by the audio; otherwise the first differing audio frame is a later
    // consequence of the step and gets its own line below, so this line names one place in time.
    if (d.stage === 'vocoder' && d.vocoderFrame !== undefined) where.push(`vocoder frame ${d.vocoderFrame}`);
    if (d.timeSec !== undefined) where.push(`t = ${d.timeSec.toFixed(3)} s`);
    lines.push(`First divergence: ${where.join(', ')}`);
    if (d.detail) lines.push(`  ${d.detail}`);
    const worst = d.stage === 'code-predictor' ? worstOtherCodebook(d) : undefined;
    if (worst) lines.push(`  The largest code-predictor |Δ| at step ${d.firstStep} is codebook ${worst.codebook}'s (${small(worst.delta)}), not codebook ${d.codebook}'s (${worst.own}): the per-step figures plot the worst codebook`);
    const list = d.divergedSteps.length > 12 ? `${d.divergedSteps.slice(0, 12).join(', ')}, … (${d.divergedSteps.length} in all)` : d.divergedSteps.join(', ');
    lines.push(d.reconverges
      ? `Re-converges: yes, from step ${d.reconvergedAtStep} on everything matches (diverged: ${list})`
      : `Re-converges: no (diverged: ${list})`);
  }
  if (d.flip) lines.push(...flipLines(d.flip));
  if (d.firstDifferingSample !== undefined && d.firstStep !== null && d.stage !== 'vocoder') {
    const frame = d.vocoderFrame !== undefined ? ` (vocoder frame ${d.vocoderFrame})` : '';
    lines.push(`First differing audio sample: ${d.firstDifferingSample}${frame}`);
  }
  for (const side of ['a', 'b'] as const) {
    const f = d.firstNonFinite[side];
    if (f) lines.push(`${side.toUpperCase()}: first non-finite values at step ${f.step} in ${f.stage} (NaN ${f.nan}, Inf ${f.inf})`);
  }
  if (d.audioCompared === false) lines.push('Audio not compared (no --wav-a/--wav-b): the vocoder stage was not checked, so the verdict cannot be identical');
  lines.push(`Tolerances: logit statistics |Δ| ≤ ${t.logitAbs}${t.logitRel ? ` + ${t.logitRel}·|x|` : ''}, codes exact, audio |Δ| ≤ ${t.audioAbs}`);
  return lines;
}

const gap = (x: number | null): string => (x === null ? '—' : small(x));

/** The first code flip: where, both sides' top-1 − top-2 gaps, and near-tie or real (near-tie.ts). */
export function flipLines(f: CodeFlip): string[] {
  const label = f.kind === 'near-tie' ? 'near-tie' : f.kind === 'real' ? 'real' : 'not classified';
  return [
    `Codes first differ: step ${f.step}, codebook ${f.codebook} (A ${f.codeA}, B ${f.codeB}): ${label} flip; top-1 − top-2 gap A ${gap(f.gapA)}, B ${gap(f.gapB)}`,
    `  ${f.detail}`,
  ];
}

const HEADER = ['step', 'mean A', 'mean B', 'std A', 'std B', 'max A', 'max B', 'argmax A', 'argmax B', 'codes A', 'codes B', 'differs at'];

function row(s: StepComparison): string[] {
  return [
    String(s.step), n4(s.a?.mean), n4(s.b?.mean), n4(s.a?.std), n4(s.b?.std), n4(s.a?.max), n4(s.b?.max),
    s.a?.argmax !== undefined ? String(s.a.argmax) : '—', s.b?.argmax !== undefined ? String(s.b.argmax) : '—',
    s.codesA ? s.codesA.join(' ') : '—', s.codesB ? s.codesB.join(' ') : '—', s.stage ?? '',
  ];
}

/** What the step table shows: around the first divergence, else around the largest logit |Δ|, else the first steps. */
export function stepTableHeading(d: Divergence): string {
  if (d.firstStep !== null) return 'Steps around the first divergence';
  if (d.largestLogitDiff) return `Steps around the largest logit |Δ| (step ${d.largestLogitDiff.step})`;
  return 'First steps';
}

/** The per-step table around the first divergence (the table seed 000's author wrote by hand). */
export function stepTableRows(d: Divergence, around = 3): string[][] {
  const { from, to } = stepTableRange(d, around);
  return [HEADER, ...d.steps.slice(from - 1, to).map(row)];
}

/** The steps (1-based, inclusive) stepTableRows shows: `around` either side of the first divergence (or largest difference). */
export function stepTableRange(d: Pick<Divergence, 'firstStep' | 'largestLogitDiff' | 'steps'>, around = 3): { from: number; to: number } {
  const centre = d.firstStep ?? d.largestLogitDiff?.step ?? 1;
  return { from: Math.max(1, centre - around), to: Math.min(d.steps.length, centre + around) };
}

export function markdownStepTable(rows: string[][]): string {
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  const [head, ...body] = rows;
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...body.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

export function textStepTable(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => '  ' + r.map((v, c) => v.padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}

/**
 * At a code-predictor divergence, the codebook whose logit statistics differ most at that step when it is not
 * the verdict's own (the first past the tolerance, or whose code differs): the per-step views plot that one.
 */
function worstOtherCodebook(d: Divergence): { codebook: number; delta: number; own: string } | undefined {
  const diffs = d.steps.find((s) => s.step === d.firstStep)?.codePredictorDiff;
  if (!diffs || d.codebook === undefined) return undefined;
  let worst: { codebook: number; delta: number } | undefined;
  diffs.forEach((v, k) => {
    const x = v === null ? NaN : Number(v);
    if (Number.isFinite(x) && (!worst || x > worst.delta)) worst = { codebook: k + 1, delta: x };
  });
  if (!worst || worst.codebook === d.codebook) return undefined;
  const own = diffs[d.codebook - 1];
  return { ...worst, own: own === null || own === undefined ? 'not recorded' : Number.isFinite(Number(own)) ? small(Number(own)) : 'not finite' };
}
