import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { writeTrace } from '../../electron/common/trace/write-trace.js';
import { header, makeSteps } from '../unit/common/forensics/synthetic-trace.js';
import { seed000Eager, seed000Graph } from '../unit/common/forensics/seed-000-traces.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-partial-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('parity compare-trace on partial traces', () => {
  it('seed 000 (means only): step 2, re-converges from step 3 at --logit-tol 0.5; report names the compared field', async () => {
    const eager = file('eager.jsonl', seed000Eager());
    const graph = file('graph.jsonl', seed000Graph());
    const out = join(dir, 'seed000');
    const run = await runParity(['compare-trace', eager, graph, '--logit-tol', '0.5', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Compared: logits.mean (partial trace)');
    expect(run.stdout).toContain('First divergence: step 2 (first decode step), stage talker-logits, codebook 0');
    expect(run.stdout).toContain('talker logit mean: 0.312 vs 13.56 (|Δ| 13.248 > 0.5)');
    expect(run.stdout).toContain('Re-converges: yes, from step 3 on');
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.divergence).toMatchObject({ firstStep: 2, reconverges: true, reconvergedAtStep: 3, compared: { fields: ['logits.mean'], missingA: [], missingB: [] } });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('- Compared: logits.mean (partial trace)');
  });

  it('seed 000 at the default tolerance: step 3 (|Δ| 0.39) diverges too, no re-convergence', async () => {
    const run = await runParity(['compare-trace', file('e.jsonl', seed000Eager()), file('g.jsonl', seed000Graph())]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Re-converges: no (diverged: 2, 3)');
  });

  it('code-predictor statistics on one side only: a warning on stderr and in report.md, and the verdict names what was compared', async () => {
    const steps = makeSteps(3, 2).map((s) => ({ ...s, codePredictorLogits: [s.logits] }));
    const a = file('cp-a.jsonl', writeTrace(header(2), steps));
    const b = file('cp-b.jsonl', writeTrace(header(2), steps.map(({ codePredictorLogits: _, ...rest }) => rest)));
    const out = join(dir, 'one-sided');
    const run = await runParity(['compare-trace', a, b, '--out', out]);
    expect(run.status).toBe(0);
    const predictor = 'codePredictorLogits.mean, codePredictorLogits.std, codePredictorLogits.min, codePredictorLogits.max, codePredictorLogits.top5';
    const warning = `${a} records ${predictor} where ${b} does not: not compared at those steps`;
    expect(run.stderr).toBe(`warning: ${warning}\n`);
    const talker = 'codes, logits.mean, logits.std, logits.min, logits.max, logits.top5';
    expect(run.stdout).toContain(`Verdict: within tolerance over ${talker} only (over the traces only: audio not compared)`);
    expect(run.stdout).not.toMatch(/Verdict: within-tolerance/);
    expect(run.stdout).toContain(`Compared: ${talker}; not in B: ${predictor} (partial trace)`);
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.warnings).toEqual([warning]);
    expect(report.divergence.compared).toEqual({ fields: talker.split(', '), missingA: [], missingB: predictor.split(', ') });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`> **Warning:** ${warning}`);
  });
});
