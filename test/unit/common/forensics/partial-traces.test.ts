import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../../../electron/common/forensics/compare-traces.js';
import { comparedFields } from '../../../../electron/common/forensics/compared-fields.js';
import { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { divergenceLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { verdictOf, verdictWords } from '../../../../electron/common/forensics/verdict.js';
import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import type { StepRecord, TraceStep } from '../../../../electron/common/trace/step-record.js';
import { header, logitRow, makeSteps } from './synthetic-trace.js';
import { seed000Eager, seed000Graph } from './seed-000-traces.js';

const Q = 3;
const FULL = ['codes', 'logits.mean', 'logits.std', 'logits.min', 'logits.max', 'logits.top5'];
const PREDICTOR = ['codePredictorLogits.mean', 'codePredictorLogits.std', 'codePredictorLogits.min', 'codePredictorLogits.max', 'codePredictorLogits.top5'];

/** Full records with the q−1 code-predictor statistics our engine writes. */
function fullSteps(count: number): StepRecord[] {
  return makeSteps(count, Q).map((s) => ({ ...s, codePredictorLogits: [1, 2].map((c) => logitStats(logitRow(s.step, c))) }));
}

const meanOnly = (steps: StepRecord[]): TraceStep[] => steps.map((s) => ({ step: s.step, logits: { mean: s.logits.mean } }));

describe('partial traces: seed 000 (only the per-step talker logit mean was logged)', () => {
  const eager = readTrace(seed000Eager(), 'eager.jsonl');
  const graph = readTrace(seed000Graph(), 'graph.jsonl');

  it('reads as traces of mean-only steps', () => {
    expect(eager.steps.map((s) => s.logits)).toEqual([{ mean: 13.43 }, { mean: 0.312 }, { mean: 13.2 }]);
    expect(graph.steps.map((s) => s.logits?.mean)).toEqual([13.43, 13.56, 13.59]);
  });

  it('localises step 2 (the first decode step) at the talker logits, comparing the mean only', () => {
    const d = localise(eager.steps, graph.steps);
    expect(d).toMatchObject({ firstStep: 2, stage: 'talker-logits', codebook: 0 });
    expect(d.detail).toBe('talker logit mean: 0.312 vs 13.56 (|Δ| 13.248 > 0.001)');
    expect(d.compared).toEqual({ fields: ['logits.mean'], missingA: [], missingB: [] });
    expect(Divergence.parse(d)).toEqual(d);
  });

  // Step 3's means, 13.20 vs 13.59, differ by 0.39: beyond the default 0.001, within 0.5.
  it('does not re-converge at the default tolerance (step 3 differs by 0.39)', () => {
    const d = localise(eager.steps, graph.steps);
    expect(d).toMatchObject({ divergedSteps: [2, 3], reconverges: false });
  });

  it('re-converges from step 3 at --logit-tol 0.5', () => {
    const d = localise(eager.steps, graph.steps, { tolerances: { logitAbs: 0.5 } });
    expect(d).toMatchObject({ firstStep: 2, divergedSteps: [2], reconverges: true, reconvergedAtStep: 3 });
  });
});

describe('partial traces: what is compared', () => {
  it('full records compare every field and are not called partial (no "Compared:" line)', () => {
    const d = localise(fullSteps(4), fullSteps(4));
    expect(d.compared).toEqual({ fields: [...FULL, ...PREDICTOR], missingA: [], missingB: [] });
    expect(divergenceLines(verdictOf(d), d).some((l) => l.startsWith('Compared:'))).toBe(false);
  });

  it('equal mean-only traces with bit-identical audio are within tolerance over logits.mean only, never identical', () => {
    const audio = { a: new Float32Array(8), b: new Float32Array(8), sampleRate: 24000 };
    const full = localise(fullSteps(3), fullSteps(3), { audio, frameRate: 12.5 });
    expect(verdictOf(full, { bitIdentical: true })).toBe('identical'); // the control: same data, every field
    const d = localise(meanOnly(fullSteps(3)), meanOnly(fullSteps(3)), { audio, frameRate: 12.5 });
    const verdict = verdictOf(d, { bitIdentical: true });
    expect(verdict).toBe('within-tolerance');
    expect(verdictWords(verdict, d)).toBe('within tolerance over logits.mean only');
    const lines = divergenceLines(verdict, d);
    expect(lines[0]).toBe('Verdict: within tolerance over logits.mean only');
    expect(lines[1]).toBe('Compared: logits.mean (partial trace)');
    expect(lines[2]).toMatch(/^No divergence: 3 steps compared, codes not compared, /);
  });

  it('code-predictor statistics on one side only: named as missing, warned about, and in the verdict words', async () => {
    const a = fullSteps(3);
    const b: TraceStep[] = fullSteps(3).map(({ codePredictorLogits: _, ...rest }) => rest);
    // Whatever B's code predictor did, B recorded nothing of it: the comparison must say so.
    const d = localise(a, b);
    expect(d.firstStep).toBeNull();
    expect(d.compared).toEqual({ fields: FULL, missingA: [], missingB: PREDICTOR });
    const verdict = verdictOf(d);
    expect(verdictWords(verdict, d)).toBe(`within tolerance over ${FULL.join(', ')} only`);
    expect(divergenceLines(verdict, d)[1]).toBe(`Compared: ${FULL.join(', ')}; not in B: ${PREDICTOR.join(', ')} (partial trace)`);

    const report = await compareTraces(
      { file: 'a.jsonl', trace: { header: header(Q), steps: a } },
      { file: 'b.jsonl', trace: { header: header(Q), steps: b } },
      { createdAt: '2026-11-25T00:00:00Z' },
    );
    expect(report.warnings).toEqual([`a.jsonl records ${PREDICTOR.join(', ')} where b.jsonl does not: not compared at those steps`]);
  });

  it('traces that share no field and come without audio are refused: there is nothing to compare', async () => {
    const a = meanOnly(fullSteps(3));
    const b: TraceStep[] = fullSteps(3).map((s) => ({ step: s.step, codes: s.codes }));
    await expect(
      compareTraces(
        { file: 'means.jsonl', trace: { header: header(Q), steps: a } },
        { file: 'codes.jsonl', trace: { header: header(Q), steps: b } },
        { createdAt: '2026-11-25T00:00:00Z' },
      ),
    ).rejects.toThrow(
      'the traces record no field in common, so there is nothing to compare: means.jsonl has logits.mean, codes.jsonl has codes (record one field on both sides, or give both WAVs; docs/trace-format.md)',
    );
  });

  it('statistics that differ between the sides: only the shared ones are compared, each side\'s extras are named', () => {
    const steps = fullSteps(2);
    const a: TraceStep[] = steps.map((s) => ({ step: s.step, logits: { mean: s.logits.mean, std: s.logits.std } }));
    // B's max is far off, but A has no max to compare it with.
    const b: TraceStep[] = steps.map((s) => ({ step: s.step, logits: { mean: s.logits.mean, max: s.logits.max + 100 } }));
    const d = localise(a, b);
    expect(d.firstStep).toBeNull();
    expect(d.compared).toEqual({ fields: ['logits.mean'], missingA: ['logits.max'], missingB: ['logits.std'] });
    expect(d.steps[0].maxStatDiff).toBe(0);
  });

  it('a shared statistic that differs still localises, whatever else is missing', () => {
    const steps = fullSteps(4);
    const a: TraceStep[] = steps.map((s) => ({ step: s.step, logits: { mean: s.logits.mean, std: s.logits.std } }));
    const b: TraceStep[] = steps.map((s) => ({ step: s.step, logits: { std: s.step === 3 ? s.logits.std + 0.01 : s.logits.std } }));
    const d = localise(a, b);
    expect(d).toMatchObject({ firstStep: 3, stage: 'talker-logits', divergedSteps: [3], reconvergedAtStep: 4 });
    expect(d.detail).toMatch(/^talker logit std: /);
    expect(d.compared).toEqual({ fields: ['logits.std'], missingA: [], missingB: ['logits.mean'] });
  });

  it('codes only: a code flip localises at sampled-code and cannot be classified without logits', () => {
    const steps = fullSteps(4);
    const a: TraceStep[] = steps.map((s) => ({ step: s.step, codes: s.codes }));
    const b: TraceStep[] = steps.map((s) => ({ step: s.step, codes: s.step === 2 ? [s.codes[0] + 1, ...s.codes.slice(1)] : s.codes }));
    const d = localise(a, b);
    expect(d).toMatchObject({ firstStep: 2, stage: 'sampled-code', codebook: 0, detail: `code 0: ${steps[1].codes[0]} vs ${steps[1].codes[0] + 1}` });
    expect(d.flip).toMatchObject({ step: 2, codebook: 0, kind: 'unknown' });
    expect(d.compared).toEqual({ fields: ['codes'], missingA: [], missingB: [] });
  });

  it('a field recorded at some steps on one side counts as missing there, compared where both have it', () => {
    const a = fullSteps(3);
    const b: TraceStep[] = fullSteps(3).map((s) => (s.step === 2 ? { step: 2, logits: s.logits } : s));
    expect(comparedFields(a, b)).toEqual({ fields: [...FULL, ...PREDICTOR], missingA: [], missingB: ['codes', ...PREDICTOR] });
  });
});
