import { CancelledError } from '../../common/errors.js';
import { checkSeed } from '../../common/sampling/uniform.js';
import { faultOutcomes } from '../../common/forensics/fault-outcomes.js';
import { countNonFinite, logitStats } from '../../common/trace/logit-stats.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import { numericsTotals } from '../../common/trace/numerics-totals.js';
import { codebookSizeOf } from '../bundle/manifest.js';
import { refuseOutOfRangeCode } from '../run/code-range.js';
import { tokenizeText } from '../text-input.js';
import type { SynthesisOptions, SynthesisRequest, SynthesisResult } from '../types.js';
import type { NativeStepOutput } from './native-addon.js';
import type { NativeRunner } from './native-backend.js';
import { checkNativeProfile } from './native-profile.js';
import { nativeVocode } from './native-vocode.js';

function stepOutput(q: number, vocab: number, hidden: number, codebookSize: number): NativeStepOutput {
  return {
    codes: new Int32Array(q),
    talkerLogits: new Float32Array(vocab),
    talkerHidden: new Float32Array(hidden),
    cpLogits: new Float32Array((q - 1) * codebookSize),
  };
}

/**
 * backend=native: the same talker -> code predictor -> vocoder loop as synthesizeWith, run by the
 * addon. Step 1 (prefill) is eager; with preset graph every later step replays the captured decode
 * step. One device time per step covers talker and code predictor together (they are one graph), so
 * timesMs.talker holds it and timesMs.codePredictor is 0.
 */
export async function synthesizeNative(runner: NativeRunner, req: SynthesisRequest, opts: SynthesisOptions = {}): Promise<SynthesisResult> {
  const t0 = performance.now();
  checkNativeProfile(req.profile, req.sampling);
  checkSeed(req.seed);
  const m = runner.bundle.manifest;
  const q = m.codebooks;
  const { ids, frames } = tokenizeText(req.text, m, runner.bundle.tokenizer);
  const stale = req.profile.faults.find((f) => f.kind === 'stale-feedback');
  const session = runner.session(req.profile.preset, stale?.kind === 'stale-feedback' ? stale.step : 0);
  session.setSampling({ ...req.sampling, seed: req.seed });
  const out = stepOutput(q, m.talker.vocab, m.talker.hidden, m.codebookSize);
  const codes = new Int32Array(frames * q);
  const steps: StepRecord[] = [];
  const stepMs: number[] = [];

  for (let s = 1; s <= frames; s++) {
    if (opts.signal?.aborted) throw new CancelledError(`synthesis cancelled before step ${s} of ${frames}`);
    const ms = s === 1 ? session.prefill(Int32Array.from(ids), out) : session.decode(s, out);
    // As on ONNX Runtime: a code outside its codebook stops the synthesis before the next step feeds it back.
    out.codes.forEach((code, c) => refuseOutOfRangeCode(s, c, code, codebookSizeOf(m, c)));
    codes.set(out.codes, (s - 1) * q);
    const cpStats = [];
    let cpNan = 0;
    let cpInf = 0;
    for (let cb = 1; cb < q; cb++) {
      const row = out.cpLogits.subarray((cb - 1) * m.codebookSize, cb * m.codebookSize);
      cpStats.push(logitStats(row));
      const c = countNonFinite(row);
      cpNan += c.nan;
      cpInf += c.inf;
    }
    const tl = countNonFinite(out.talkerLogits);
    const th = countNonFinite(out.talkerHidden);
    stepMs.push(ms);
    steps.push({
      step: s,
      logits: logitStats(out.talkerLogits),
      codes: Array.from(out.codes),
      codePredictorLogits: cpStats,
      nan: { talker: tl.nan + th.nan, codePredictor: cpNan, vocoder: 0 },
      inf: { talker: tl.inf + th.inf, codePredictor: cpInf, vocoder: 0 },
      timesMs: { talker: ms, codePredictor: 0 },
    });
    opts.onProgress?.({ stage: 'talker', step: s, totalSteps: frames });
    await Promise.resolve();
  }

  if (opts.signal?.aborted) throw new CancelledError(`synthesis cancelled before the vocoder`);
  const tVoc = performance.now();
  const audio = nativeVocode(session, m, req.profile, codes, frames, steps, opts);
  const vocoderMs = performance.now() - tVoc;

  const { nan, inf } = numericsTotals(steps);
  return {
    audio,
    sampleRate: m.sampleRate,
    codes,
    frames,
    q,
    steps,
    timings: {
      totalMs: performance.now() - t0,
      talkerPrefillMs: stepMs[0] ?? 0,
      talkerStepMs: stepMs,
      codePredictorFrameMs: stepMs.map(() => 0),
      vocoderMs,
      sessionRunMs: stepMs.reduce((a, b) => a + b, 0),
    },
    numerics: { nan, inf },
    executionProvider: runner.backend.device === 'cuda' ? 'cuda' : 'cpu',
    profile: req.profile.text,
    faults: faultOutcomes(req.profile, frames, m.vocoder.chunkFrames),
    seed: req.seed,
    sampling: req.sampling,
    bundleHash: runner.bundle.hash,
  };
}
