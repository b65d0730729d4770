import { describe, expect, it } from 'vitest';
import type { LogitStats, StepRecord } from '../../../../electron/common/trace/step-record.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { agreementPrecisions, checkEagerGraphAgreement } from '../../../../electron/engine/smoke/eager-graph-agreement.js';
import type { SynthesisRequest, SynthesisResult } from '../../../../electron/engine/types.js';

const exports = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, { file: `x.${k}.onnx` }]));
/** The fields the agreement check reads: text (for its prompt), the export keys and files. */
function manifest(talker: string[], codePredictor = talker, vocoder = ['fp32', 'fp16']): BundleManifest {
  return {
    text: { tokenizer: 'byte', bos: 256, framesPerChar: 0.9, maxBytes: 128 },
    talker: { exports: exports(talker) },
    codePredictor: { exports: exports(codePredictor) },
    vocoder: { exports: exports(vocoder) },
  } as unknown as BundleManifest;
}

const row = (top: number, mean = 0.1): LogitStats => ({ mean, std: 1, min: -3, max: top, argmax: 0, top5: [{ id: 0, logit: top }, { id: 1, logit: top - 1 }] });
/** Every compared value (max, mean, std, top-5) moved by `d`: relative difference d / max(1, |value|) ≤ d. */
const shifted = (s: StepRecord, d: number): StepRecord => ({ ...s, logits: { ...s.logits, max: s.logits.max + d, mean: s.logits.mean + d, std: s.logits.std + d, top5: s.logits.top5.map((t) => ({ ...t, logit: t.logit + d })) } });
const step = (s: number, talkerTop: number, codes: number[], cpTops: number[]): StepRecord => ({ step: s, logits: row(talkerTop), codes, codePredictorLogits: cpTops.map((t) => row(t)) });

/** No stage of a run produced NaN or Inf. */
export const FINITE = { nan: { talker: 0, codePredictor: 0, vocoder: 0 }, inf: { talker: 0, codePredictor: 0, vocoder: 0 } };

/**
 * The engine's two runs are given here as step records (the real engine's runs are checked by
 * test/cli/bundle-smoke.test.ts on the demo bundle): the check's job is to compare them.
 */
function engine(eager: StepRecord[], graph: StepRecord[]) {
  const asked: string[] = [];
  const synthesize = (req: SynthesisRequest) => {
    asked.push(`${req.profile.text} "${req.text}" ${req.sampling.mode}`);
    return Promise.resolve({ steps: req.profile.preset === 'graph' ? graph : eager, numerics: FINITE } as SynthesisResult);
  };
  return { asked, synthesize };
}

const EAGER = [step(1, 2, [1, 2, 3], [1, 1]), step(2, 3, [4, 5, 6], [2, 2]), step(3, 1.5, [7, 8, 9], [0.5, 0.5])];
const m = manifest(['eager-fp32', 'graph-fp32']);

describe('checkEagerGraphAgreement', () => {
  it('runs eager and graph greedy on about 4 frames of text and passes rows within 1e-3 relative', async () => {
    const e = engine(EAGER, EAGER.map((s) => shifted(s, 4e-4)));
    // The largest relative difference is at a value below 1 in magnitude: 4e-4 / 1.
    expect(await checkEagerGraphAgreement(m, e.synthesize, 'fp32')).toBe('eager vs graph (fp32): greedy on "aaaaa", 3 of 3 steps compared, codes identical; logits within 4.0e-4 relative (tolerance 0.001)');
    // ceil(4 / 0.9) = 5 characters.
    expect(e.asked).toEqual(['eager "aaaaa" greedy', 'graph "aaaaa" greedy']);
  });

  it('names the first step and network that differ beyond the tolerance', async () => {
    // Step 2's top logits 3 and 2 become 3.5 and 2.5: 0.5 / 2 = 0.25 relative at the second.
    const talkerOff = [EAGER[0], { ...EAGER[1], logits: row(3.5) }, EAGER[2]];
    await expect(checkEagerGraphAgreement(m, engine(EAGER, talkerOff).synthesize, 'fp32')).rejects.toThrow(
      'smoke: eager and graph disagree at step 2 in the talker (eager-fp32 x.eager-fp32.onnx vs graph-fp32 x.graph-fp32.onnx), greedy on "aaaaa": logits differ by 0.250 relative (tolerance 0.001); fix: the graph export must compute what the eager one does',
    );
    // Codebook 2's top logit 0.5 → 0.9: 0.4 / max(1, 0.5).
    const cpOff = [EAGER[0], EAGER[1], step(3, 1.5, [7, 8, 9], [0.5, 0.9])];
    await expect(checkEagerGraphAgreement(m, engine(EAGER, cpOff).synthesize, 'fp32')).rejects.toThrow(
      'smoke: eager and graph disagree at step 3 in the code-predictor (eager-fp32 x.eager-fp32.onnx vs graph-fp32 x.graph-fp32.onnx), greedy on "aaaaa": logits of codebook 2 differ by 0.400 relative',
    );
  });

  it('stops at a near tie: a code differs while the logits agree; later rows (fed other codes) are not compared', async () => {
    // Step 2's last code flips after all its rows agreed; step 3 would differ by far, but is not compared.
    const tie = [EAGER[0], step(2, 3, [4, 5, 7], [2, 2]), step(3, 9, [0, 0, 0], [9, 9])];
    expect(await checkEagerGraphAgreement(m, engine(EAGER, tie).synthesize, 'fp32')).toBe(
      'eager vs graph (fp32): greedy on "aaaaa", 2 of 3 steps compared, codes identical until a near tie at step 2; logits within 0.0e+0 relative (tolerance 0.001)',
    );
  });

  it('fp16 is held to 2e-2 relative', async () => {
    const mf = manifest(['eager-fp16', 'graph-fp16']);
    expect(await checkEagerGraphAgreement(mf, engine(EAGER, EAGER.map((s) => shifted(s, 1e-2))).synthesize, 'fp16')).toMatch(/codes identical; logits within 1\.0e-2 relative \(tolerance 0\.02\)$/);
    await expect(checkEagerGraphAgreement(mf, engine(EAGER, EAGER.map((s) => shifted(s, 3e-2))).synthesize, 'fp16')).rejects.toThrow(/disagree at step 1 in the talker .* \(tolerance 0\.02\)/);
  });
});

describe('agreementPrecisions', () => {
  it('a precision is compared when talker and code predictor have both its eager and graph exports, and the vocoder has it', () => {
    expect(agreementPrecisions(manifest(['eager-fp32', 'graph-fp32', 'eager-fp16', 'graph-fp16']))).toEqual(['fp32', 'fp16']);
    expect(agreementPrecisions(manifest(['eager-fp32', 'graph-fp32', 'eager-fp16', 'graph-fp16'], ['eager-fp32', 'graph-fp32', 'eager-fp16']))).toEqual(['fp32']);
    expect(agreementPrecisions(manifest(['eager-fp32', 'graph-fp32'], undefined, ['fp16']))).toEqual([]);
    expect(agreementPrecisions(manifest(['eager-fp32']))).toEqual([]);
  });
});
