import { describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { runBaseline } from '../../../../electron/engine/comparison/baseline-runs.js';
import type { ProfileComparison } from '../../../../electron/engine/comparison/compare-profiles.js';
import type { Engine, SynthesisOptions, SynthesisRequest, SynthesisResult } from '../../../../electron/engine/engine.js';
import { makeSteps } from '../../common/forensics/synthetic-trace.js';

// An engine double: each profile's runs are listed in call order, so a profile can be made to answer
// differently on its second run (a deliberately nondeterministic side) without an engine fault for it.
function engineDouble(runs: Record<string, SynthesisResult[]>) {
  const calls: { profile: string; teacherCodes?: Int32Array }[] = [];
  const engine = {
    synthesize: async (req: SynthesisRequest, opts: SynthesisOptions = {}) => {
      calls.push({ profile: req.profile.text, teacherCodes: opts.teacherCodes });
      return runs[req.profile.text].shift()!;
    },
  } as unknown as Engine;
  return { engine, calls };
}

const result = (profile: string, steps = makeSteps(4, 2)): SynthesisResult =>
  ({ profile, steps, audio: new Float32Array(4 * 1920).fill(0.25), sampleRate: 24000, codes: Int32Array.of(1, 2, 3, 4, 5, 6, 7, 8) }) as unknown as SynthesisResult;

function comparison(a: SynthesisResult, b: SynthesisResult): ProfileComparison {
  const tolerances = { logitAbs: 1e-3, logitRel: 0, audioAbs: 1e-4, codes: 'exact' as const };
  return { resultA: a, resultB: b, report: { a: { profile: 'eager', frameRate: 12.5 }, b: { profile: 'graph', frameRate: 12.5 }, rerun: { tolerances } } } as unknown as ProfileComparison;
}

const req = { text: 'x', profileA: 'eager', profileB: 'graph', seed: 0, sampling: GREEDY, bundle: 'demo' };

describe('runBaseline (engine double)', () => {
  it('re-runs each profile once and flags the side whose second run differs, with its steps', async () => {
    const noisy = makeSteps(4, 2);
    noisy[2].codes[1] += 1; // B's second run picks another code at step 3
    const { engine, calls } = engineDouble({ eager: [result('eager')], graph: [result('graph', noisy)] });
    const b = await runBaseline(engine, req, comparison(result('eager'), result('graph')));
    expect(calls.map((c) => c.profile)).toEqual(['eager', 'graph']);
    expect(b.a).toMatchObject({ profile: 'eager', deterministic: true });
    expect(b.b).toMatchObject({ profile: 'graph', deterministic: false, differingSteps: [3], firstStep: 3, stage: 'code-predictor', withinTolerance: false });
  });

  it('teacher-forced: B\'s second run is fed the codes A\'s first run made; A\'s is not forced', async () => {
    const { engine, calls } = engineDouble({ eager: [result('eager')], graph: [result('graph')] });
    const a1 = result('eager');
    await runBaseline(engine, { ...req, teacherForce: true }, comparison(a1, result('graph')));
    expect(calls[0].teacherCodes).toBeUndefined();
    expect(calls[1].teacherCodes).toBe(a1.codes);
  });
});
