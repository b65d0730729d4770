import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import type { StepRecord } from '../../../electron/common/trace/step-record.js';
import type { Engine } from '../../../electron/engine/engine.js';
import type { SynthesisResult } from '../../../electron/engine/types.js';
import { demoEngine } from './demo-bundle.js';

const TEXT = 'Faults must change nothing before their step.'; // 46 chars -> 41 frames
let engine: Engine;
let dispose: (() => Promise<void>) | undefined;
const runs = new Map<string, Promise<SynthesisResult>>();
const synth = (profile: string): Promise<SynthesisResult> => {
  if (!runs.has(profile)) runs.set(profile, engine.synthesize({ text: TEXT, profile: parseProfile(profile), seed: 3, sampling: GREEDY }));
  return runs.get(profile) as Promise<SynthesisResult>;
};

beforeAll(async () => {
  ({ engine, dispose } = await demoEngine('faults-test-'));
});
afterAll(() => dispose?.());

/** Steps equal in everything the localiser compares (logit stats and codes), timings aside. */
const same = (a: StepRecord, b: StepRecord): boolean => JSON.stringify([a.logits, a.codes, a.codePredictorLogits, a.nan]) === JSON.stringify([b.logits, b.codes, b.codePredictorLogits, b.nan]);
const firstDifferent = (a: SynthesisResult, b: SynthesisResult): number => (a.steps.find((s, i) => !same(s, b.steps[i]))?.step ?? 0);

describe('faults', () => {
  for (const [preset, n] of [['graph', 2], ['graph', 7], ['eager', 4]] as const) {
    it(`${preset},fault=stale-feedback@${n}: first difference at step ${n}, in the talker logits`, async () => {
      const base = await synth(preset);
      const bad = await synth(`${preset},fault=stale-feedback@${n}`);
      expect(firstDifferent(base, bad)).toBe(n);
      expect(bad.steps[n - 1].logits.mean).not.toBe(base.steps[n - 1].logits.mean);
      expect(bad.numerics.nan).toEqual({ talker: 0, codePredictor: 0, vocoder: 0 });
    });
  }

  it('no-left-context: same codes, first chunk (5 frames) bit-identical, then different audio', async () => {
    const base = await synth('graph,vocoder=stream');
    const bad = await synth('graph,vocoder=stream,fault=no-left-context');
    expect(Array.from(bad.codes)).toEqual(Array.from(base.codes));
    const boundary = 5 * 1920;
    let first = -1;
    for (let i = 0; i < base.audio.length && first < 0; i++) if (bad.audio[i] !== base.audio[i]) first = i;
    expect(first).toBeGreaterThanOrEqual(boundary);
    expect(first).toBeLessThan(boundary + 1920);
    const diff = base.audio.reduce((m, x, i) => Math.max(m, Math.abs(x - bad.audio[i])), 0);
    expect(diff).toBeGreaterThan(1e-2);
  });

  for (const [stage, n] of [['talker', 4], ['code-predictor', 5], ['vocoder', 3]] as const) {
    it(`nan@${stage}:${n}: no NaN before step ${n}, counted where it starts`, async () => {
      const base = await synth('graph');
      const bad = await synth(`graph,fault=nan@${stage}:${n}`);
      const key = stage === 'code-predictor' ? 'codePredictor' : stage;
      for (let s = 1; s < n; s++) expect(same(bad.steps[s - 1], base.steps[s - 1]), `step ${s}`).toBe(true);
      expect(bad.steps[n - 1].nan?.[key]).toBeGreaterThan(0);
      if (stage === 'talker') {
        // spreads through the KV cache to every later step, and into the code predictor
        for (let s = n + 1; s <= bad.frames; s++) expect(bad.steps[s - 1].nan?.talker, `step ${s}`).toBeGreaterThan(0);
        expect(bad.steps[n - 1].nan?.codePredictor).toBeGreaterThan(0);
      }
      if (stage === 'vocoder') {
        expect(bad.steps[n - 1].nan?.vocoder).toBe(1920); // the frame's noise is NaN: every sample of frame n
        expect(bad.numerics.nan.vocoder).toBe(1920);
      }
    });
  }

  it('fp16-overflow: NaN from the overflowing layer under fp16; exact no-op under fp32 (scale 2^16)', async () => {
    const fp16 = await synth('graph,precision=fp16,fault=fp16-overflow');
    expect(fp16.steps[0].nan?.talker).toBeGreaterThan(0);
    const clean16 = await synth('graph,precision=fp16');
    expect(clean16.numerics.nan.talker).toBe(0);
    const fp32 = await synth('graph,fault=fp16-overflow');
    const base = await synth('graph');
    expect(Buffer.from(fp32.audio.buffer).equals(Buffer.from(base.audio.buffer))).toBe(true);
  });
});

describe('fault bookkeeping', () => {
  it('records each fault as applied, or not with the reason (a step past the last frame never runs)', async () => {
    // TEXT gives 41 frames (comment above), so step 200 never runs and step 7 does.
    const late = await synth('graph,fault=stale-feedback@200');
    expect(late.frames).toBe(41);
    expect(late.faults).toEqual([{ fault: 'stale-feedback@200', applied: false, reason: 'step 200 never ran: the synthesis ended after 41 steps' }]);
    expect((await synth('graph,fault=stale-feedback@7')).faults).toEqual([{ fault: 'stale-feedback@7', applied: true }]);
    expect((await synth('graph,fault=fp16-overflow')).faults?.[0]).toMatchObject({ applied: false });
    expect((await synth('graph')).faults).toEqual([]);
  });
});
