import { CancelledError, ProfileError } from '../common/errors.js';
import type { Fault } from '../common/profile/types.js';
import { Sampler, sampleToken } from '../common/sampling/sample-token.js';
import { GREEDY } from '../common/sampling/types.js';
import { checkSeed, uniform } from '../common/sampling/uniform.js';
import { countNonFinite, logitStats } from '../common/trace/logit-stats.js';
import type { StepRecord } from '../common/trace/step-record.js';
import { codebookSizeOf } from './bundle/manifest.js';
import { atStep } from './ort-run-error.js';
import { refuseOutOfRangeCode } from './run/code-range.js';
import { DelayPatternEmission } from './run/delay-pattern-emission.js';
import { jitterInput } from './run/jitter.js';
import { runOutcome } from './run/run-outcome.js';
import { Vocoding } from './run/vocode.js';
import type { SynthesisPlan } from './synthesize.js';
import { tokenizeText } from './text-input.js';
import type { SynthesisOptions, SynthesisRequest, SynthesisResult } from './types.js';

/**
 * The loop of a talker that emits every codebook per step (bundle.json `talker.codebooks: "all"`, Dia;
 * docs/bundle-format.md "Every codebook per step"): the encoder reads the text once; step 1 feeds the BOS
 * frame, step s ≥ 2 the sum of the codec rows of the codes step s − 1 emitted; each step's logits are Q rows.
 * The delay pattern (`codebookDelays`, all 0 without it) forces BOS, EOS and PAD; codebook 0's EOS ends the
 * take. The result's steps hold the raw emission, its codes the frames (the delay undone), which the vocoder
 * decodes after the last step.
 */
export async function synthesizeAllCodebooks(plan: SynthesisPlan, req: SynthesisRequest, opts: SynthesisOptions = {}): Promise<SynthesisResult> {
  const t0 = performance.now();
  const m = plan.manifest;
  const q = m.codebooks;
  const V = m.talker.vocab;
  checkSeed(req.seed);
  if (opts.teacherCodes) throw new ProfileError('teacher forcing: not supported for a talker that emits every codebook (talker.codebooks "all") yet', plan.profile.text);
  const encoder = plan.encoder;
  if (!encoder) throw new ProfileError(`profile "${plan.profile.text}": talker.codebooks "all" runs with the bundle's encoder, which this plan lacks`, plan.profile.text);
  const { frames, ids } = tokenizeText(req.text, m, plan.tokenizer, { speaker: req.speaker, instruction: req.instruction });
  const { bos } = m.specialCodes;
  const eos = m.specialCodes.eos ?? -1;
  const delays = m.codebookDelays ?? new Array<number>(q).fill(0);
  const emission = new DelayPatternEmission(delays, { bos, eos, pad: m.specialCodes.pad ?? bos }, frames);
  const faultOf = <K extends Fault['kind']>(kind: K) => plan.profile.faults.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);
  const stale = faultOf('stale-feedback');
  const nanFault = faultOf('nan');
  if (nanFault?.stage === 'code-predictor') {
    throw new ProfileError(`profile "${plan.profile.text}": fault nan@code-predictor: this bundle has no code predictor (talker.codebooks "all": the talker emits every codebook); use nan@talker`, plan.profile.text);
  }
  const jitter = faultOf('nondeterministic');
  const checkAbort = (): void => {
    if (opts.signal?.aborted) throw new CancelledError(`synthesis cancelled before step ${steps.length + 1}`);
  };

  const sampler = new Sampler();
  const history: number[][] = Array.from({ length: q }, () => []);
  const sizes = Array.from({ length: q }, (_, c) => codebookSizeOf(m, c));
  const row = new Float32Array(V);
  /** Codebook k's code at `step` from its raw row: ids past its codes masked; codebook 0 keeps EOS, taken only when it is the top id (Dia's EOS filter). */
  const pick = (step: number, logits: Float32Array, k: number): number => {
    row.set(logits);
    row.fill(-Infinity, sizes[k]);
    if (k === 0 && eos >= 0) {
      row[eos] = logits[eos];
      if (sampleToken(row, GREEDY, 0) === eos) return eos;
      row[eos] = -Infinity;
    }
    const draw = req.sampling.mode === 'sample' ? uniform(req.seed, step, k) : 0;
    const code = sampler.sample(row, req.sampling, draw, history[k]);
    refuseOutOfRangeCode(step, k, code, sizes[k]);
    history[k].push(code);
    return code;
  };

  const tEncoder = performance.now();
  const encoded = await atStep('the encoder', () => encoder.encode(ids));
  const encoderMs = performance.now() - tEncoder;
  const emitted = new Int32Array(emission.maxSteps * q);
  const bosFrame = new Int32Array(q).fill(bos);
  const steps: StepRecord[] = [];
  const talkerStepMs: number[] = [];
  let stepRunMs = 0;
  plan.talker.reset();
  for (let s = 1; s <= emission.maxSteps; s++) {
    checkAbort();
    const tStep = performance.now();
    const runBefore = plan.clock.ms;
    const fed = stale?.step === s ? s - 2 : s - 1; // the step whose codes are fed back; 0 = the BOS frame
    const input = plan.table.feedback(fed <= 0 ? bosFrame : emitted.subarray((fed - 1) * q, fed * q));
    if (nanFault?.stage === 'talker' && nanFault.step === s) input[0] = NaN;
    if (jitter && s >= jitter.step) jitterInput(input);
    const out = await atStep(`step ${s}`, () => plan.talker.forward(input, 1, encoded));
    const codes: number[] = [];
    const stats = [];
    for (let k = 0; k < q; k++) {
      const logits = out.logits.subarray(k * V, (k + 1) * V);
      stats.push(logitStats(logits)); // the raw row: EOS and special ids included
      const code = emission.forced(s, k) ?? pick(s, logits, k);
      if (k === 0) emission.emittedCodebook0(s, code);
      codes.push(code);
    }
    emitted.set(codes, (s - 1) * q);
    const cpRows = out.logits.subarray(V);
    const talkerNumerics = countNonFinite(out.logits.subarray(0, V));
    const others = countNonFinite(cpRows);
    const ms = performance.now() - tStep;
    stepRunMs += plan.clock.ms - runBefore;
    talkerStepMs.push(ms);
    steps.push({
      step: s,
      logits: stats[0],
      codes,
      codePredictorLogits: stats.slice(1),
      nan: { talker: talkerNumerics.nan, codePredictor: others.nan, vocoder: 0 },
      inf: { talker: talkerNumerics.inf, codePredictor: others.inf, vocoder: 0 },
      timesMs: { talker: ms, codePredictor: 0 },
    });
    opts.onProgress?.({ stage: 'talker', step: s, totalSteps: emission.maxSteps });
    if (emission.finishedAt(s)) break;
  }

  checkAbort();
  const frameCount = emission.frameCount;
  const frameCodes = emission.framesOf(emitted);
  const vocoding = new Vocoding(plan, frameCount, checkAbort, opts, nanFault?.stage === 'vocoder' ? nanFault.step : undefined);
  const audio = await atStep(`after step ${steps.length} (the vocoder over the ${frameCount} frames)`, () => vocoding.finish(frameCodes, steps));
  return {
    audio,
    sampleRate: m.sampleRate,
    codes: frameCodes,
    frames: frameCount,
    q,
    steps,
    codebookDelays: delays,
    timings: {
      totalMs: performance.now() - t0,
      talkerPrefillMs: encoderMs + (talkerStepMs[0] ?? 0),
      talkerStepMs,
      codePredictorFrameMs: talkerStepMs.map(() => 0),
      vocoderMs: vocoding.ms,
      sessionRunMs: plan.clock.ms,
      stepSessionRunMs: stepRunMs,
    },
    ...runOutcome(plan, req, steps, steps.length),
  };
}
