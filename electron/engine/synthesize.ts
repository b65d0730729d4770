import { CancelledError } from '../common/errors.js';
import type { ExecutionProfile, Fault } from '../common/profile/types.js';
import { Sampler } from '../common/sampling/sample-token.js';
import { checkSeed, uniform } from '../common/sampling/uniform.js';
import { countNonFinite, logitStats } from '../common/trace/logit-stats.js';
import type { StepRecord } from '../common/trace/step-record.js';
import { codebookSizeOf, type BundleManifest } from './bundle/manifest.js';
import { refuseOutOfRangeCode } from './run/code-range.js';
import type { FeedTap } from './drill/feed-tap.js';
import type { TextTokenizer } from './bundle/text-tokenizer.js';
import { atStep } from './ort-run-error.js';
import type { OrtSession } from './ort-session.js';
import { predictCodes } from './run/code-predictor-loop.js';
import type { DecoderRunner } from './run/decoder-runners.js';
import type { EmbeddingTable } from './run/embedding-table.js';
import type { EncoderRunner } from './run/encoder-runner.js';
import type { RunClock } from './run/run-clock.js';
import { jitterInput } from './run/jitter.js';
import { TeacherForcing } from './run/teacher-force.js';
import { runOutcome } from './run/run-outcome.js';
import { Vocoding } from './run/vocode.js';
import { synthesizeAllCodebooks } from './synthesize-all-codebooks.js';
import { tokenizeText } from './text-input.js';
import type { SynthesisOptions, SynthesisRequest, SynthesisResult } from './types.js';

/** Everything one profile needs, prepared by the Engine from its session pool. */
export interface SynthesisPlan {
  manifest: BundleManifest;
  tokenizer: TextTokenizer;
  profile: ExecutionProfile;
  talker: DecoderRunner;
  /** Absent when the talker emits every codebook (talker.codebooks "all"). */
  codePredictor?: DecoderRunner;
  /** The text encoder (bundle.json `encoder`), run once per synthesis. */
  encoder?: EncoderRunner;
  vocoder: OrtSession;
  table: EmbeddingTable;
  clock: RunClock;
  provider: 'cpu' | 'cuda';
  fallback?: string;
  bundleHash: string;
  /** Set only when SynthesisOptions.recordFeeds asks for a drill-down recording. */
  tap?: FeedTap;
  /** batch=N only: the rows the batched runners run (N, or its graph bucket). */
  batchRows?: number;
}

const faultOf = <K extends Fault['kind']>(p: ExecutionProfile, kind: K) => p.faults.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);

/**
 * The talker -> code predictor -> vocoder loop. Step s (1-based) yields frame s: step 1 is the text
 * prefill, step s >= 2 feeds back the sum of frame s-1's Q code embeddings. EOS is masked until the
 * frame count the text asks for and forced there.
 */
export async function synthesizeWith(plan: SynthesisPlan, req: SynthesisRequest, opts: SynthesisOptions = {}): Promise<SynthesisResult> {
  if (plan.manifest.talker.codebooks === 'all') return synthesizeAllCodebooks(plan, req, opts);
  const t0 = performance.now();
  const m = plan.manifest;
  const q = m.codebooks;
  checkSeed(req.seed);
  const codePredictor = plan.codePredictor as DecoderRunner; // makePlan gives one to every bundle but talker.codebooks "all"
  const { frames, talker: text } = tokenizeText(req.text, m, plan.tokenizer, { speaker: req.speaker, instruction: req.instruction });
  const checkAbort = (): void => {
    if (opts.signal?.aborted) throw new CancelledError(`synthesis cancelled before step ${steps.length + 1} of ${frames}`);
  };
  const stale = faultOf(plan.profile, 'stale-feedback');
  const nanFault = faultOf(plan.profile, 'nan');
  const jitter = faultOf(plan.profile, 'nondeterministic');
  const poisoned = (stage: string, step: number): boolean => nanFault?.stage === stage && nanFault.step === step;
  const graph = plan.profile.preset === 'graph';

  const sampler = new Sampler();
  const history: number[][] = Array.from({ length: q }, () => []);
  const sizes = Array.from({ length: q }, (_, c) => codebookSizeOf(m, c));
  const cpMasked = new Float32Array(m.codebookSize);
  const teacher = opts.teacherCodes ? new TeacherForcing(opts.teacherCodes, frames, q) : undefined;
  // Every sampled code is checked before it reaches an embedding row or the vocoder.
  const pick = (step: number) => (logits: Float32Array, codebook: number): number => {
    const draw = req.sampling.mode === 'sample' ? uniform(req.seed, step, codebook) : 0;
    let row = logits;
    if (codebook > 0 && sizes[codebook] < logits.length) {
      // A codebook smaller than the code predictor's logit width: its tail ids are not codes.
      cpMasked.set(logits);
      row = cpMasked.fill(-Infinity, sizes[codebook]);
    }
    const own = sampler.sample(row, req.sampling, draw, history[codebook]);
    refuseOutOfRangeCode(step, codebook, own, sizes[codebook]);
    const code = teacher ? teacher.choose(step, codebook, own) : own;
    history[codebook].push(code);
    return code;
  };

  const codes = new Int32Array(frames * q);
  const steps: StepRecord[] = [];
  const talkerStepMs: number[] = [];
  const cpMs: number[] = [];
  let stepRunMs = 0;
  const masked = new Float32Array(m.talker.vocab);
  const vocoding = new Vocoding(plan, frames, checkAbort, opts, nanFault?.stage === 'vocoder' ? nanFault.step : undefined);
  plan.talker.reset();
  // graph: the audio-feedback codes live in one persistent buffer, rewritten after each step.
  const feedbackBuffer = new Int32Array(q).fill(m.specialCodes.bos);
  for (let s = 1; s <= frames; s++) {
    checkAbort();
    plan.tap?.enterStep(s);
    const tTalker = performance.now();
    const runBefore = plan.clock.ms;
    let input: Float32Array;
    if (s === 1) input = plan.table.prefill(text.prefill);
    else {
      const staleNow = stale?.step === s;
      if (graph) {
        if (!staleNow) feedbackBuffer.set(codes.subarray((s - 2) * q, (s - 1) * q));
        input = plan.table.feedback(feedbackBuffer);
      } else {
        const src = staleNow ? s - 2 : s - 1; // frame index (1-based) whose codes are fed back; 0 = BOS
        input = plan.table.feedback(src === 0 ? feedbackBuffer : codes.subarray((src - 1) * q, src * q));
      }
      const c = text.conditioning;
      if (c) plan.table.addText(input, c.ids[s - 2] ?? c.pad); // trailing text token s−2, then pad
    }
    if (poisoned('talker', s)) input[0] = NaN;
    if (jitter && s >= jitter.step) jitterInput(input);
    const out = await atStep(`step ${s}`, () => plan.talker.forward(input, s === 1 ? text.prefill.length : 1));
    const talkerStats = logitStats(out.logits); // the raw row: EOS and special ids included
    masked.set(out.logits);
    // Ids from codebook 0's size up are special tokens (never codes), and EOS only ends the loop at the frame count.
    masked.fill(-Infinity, sizes[0]);
    if (m.specialCodes.eos !== undefined) masked[m.specialCodes.eos] = -Infinity;
    const code0 = pick(s)(masked, 0);
    const tc = countNonFinite(out.logits);
    const th = countNonFinite(out.hidden ?? new Float32Array(0));
    const talkerMs = performance.now() - tTalker;

    const tCp = performance.now();
    const frame = await atStep(`step ${s}`, () => predictCodes(codePredictor, plan.table, q, out.hidden as Float32Array, code0, pick(s), poisoned('code-predictor', s)));
    const frameMs = performance.now() - tCp;
    stepRunMs += plan.clock.ms - runBefore;
    codes.set(frame.codes, (s - 1) * q);
    talkerStepMs.push(talkerMs);
    cpMs.push(frameMs);
    steps.push({
      step: s,
      logits: talkerStats,
      codes: teacher ? teacher.ownFrame() : frame.codes,
      codePredictorLogits: frame.logits,
      nan: { talker: tc.nan + th.nan, codePredictor: frame.nan, vocoder: 0 },
      inf: { talker: tc.inf + th.inf, codePredictor: frame.inf, vocoder: 0 },
      timesMs: { talker: talkerMs, codePredictor: frameMs },
    });
    opts.onProgress?.({ stage: 'talker', step: s, totalSteps: frames });
    await atStep(`step ${s}`, () => vocoding.framesReady(codes, s));
  }

  checkAbort();
  const audio = await atStep(`after step ${frames} (the vocoder over the last frames)`, () => vocoding.finish(codes, steps));

  return {
    audio,
    sampleRate: m.sampleRate,
    codes,
    frames,
    q,
    steps,
    timings: {
      totalMs: performance.now() - t0,
      talkerPrefillMs: talkerStepMs[0] ?? 0,
      talkerStepMs,
      codePredictorFrameMs: cpMs,
      vocoderMs: vocoding.ms,
      sessionRunMs: plan.clock.ms,
      stepSessionRunMs: stepRunMs,
    },
    ...(plan.batchRows ? { batchRows: plan.batchRows } : {}),
    ...runOutcome(plan, req, steps, frames),
  };
}
