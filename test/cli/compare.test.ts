import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComparisonReport } from '../../electron/common/report/comparison-report.js';
import { resolveDemoBundle } from '../../electron/engine/engine.js';
import { mapLimit, runParity } from './run-parity.js';

const TEXT = 'Hello world, this is a parity test.';
const dir = mkdtempSync(join(tmpdir(), 'parity-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { SOURCE_DATE_EPOCH: '1700000000' };

function withoutTimes(r: ComparisonReport) {
  const side = (s: ComparisonReport['a']) => ({ ...s, timings: {}, steps: s.steps.map((step) => ({ ...step, timesMs: undefined })) });
  return { ...r, a: side(r.a), b: side(r.b), integrity: undefined };
}

async function compare(a: string, b: string, extra: string[] = []): Promise<ComparisonReport> {
  const run = await runParity(['compare', '--text', TEXT, '--a', a, '--b', b, '--json', ...extra], { env, timeoutMs: 60_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return ComparisonReport.parse(JSON.parse(run.stdout));
}

describe('parity compare (demo bundle)', () => {
  it('eager vs eager: identical, bit-identical; the same inputs give the same fixture bytes', async () => {
    const [x, y] = await mapLimit(['x', 'y'], 2, (name) =>
      runParity(['compare', '--text', TEXT, '--a', 'eager', '--b', 'eager', '--out', join(dir, name)], { env, timeoutMs: 60_000 }));
    expect(x.status).toBe(0);
    expect(y.status).toBe(0);
    const report = ComparisonReport.parse(JSON.parse(readFileSync(join(dir, 'x', 'report.json'), 'utf8')));
    expect(report.verdict).toBe('identical');
    expect(report.metrics.bitIdentical).toBe(true);
    expect(report.divergence.firstStep).toBeNull();
    for (const f of ['a.wav', 'b.wav', 'diff.wav']) {
      expect(readFileSync(join(dir, 'y', f)).equals(readFileSync(join(dir, 'x', f))), f).toBe(true);
    }
    // Wall times differ run to run; everything else in the report is the same.
    const other = ComparisonReport.parse(JSON.parse(readFileSync(join(dir, 'y', 'report.json'), 'utf8')));
    expect(withoutTimes(other)).toEqual(withoutTimes(report));
    expect(x.stdout).toContain('Verdict: identical');
  });

  it.each([2, 4, 7])('graph vs graph,fault=stale-feedback@%i: first step N, stage talker-logits, re-convergence stated truthfully', async (n) => {
    const r = await compare('graph', `graph,fault=stale-feedback@${n}`);
    expect(r.divergence).toMatchObject({ firstStep: n, stage: 'talker-logits', codebook: 0 });
    // Truthful: re-converges exactly when the last divergent step is before the end.
    const last = r.divergence.divergedSteps.at(-1)!;
    expect(r.divergence.reconverges).toBe(last < r.divergence.stepsA);
    // A fault never changes anything before its step.
    for (let s = 0; s < n - 1; s++) expect({ ...r.b.steps[s], timesMs: 0 }).toEqual({ ...r.a.steps[s], timesMs: 0 });
    expect(r.verdict).toBe('diverged');
  });

  it.each([3, 5, 9])('eager vs eager,fault=nan@code-predictor:%i: that step, stage code-predictor, NaN counted', async (n) => {
    const r = await compare('eager', `eager,fault=nan@code-predictor:${n}`);
    expect(r.divergence).toMatchObject({ firstStep: n, stage: 'code-predictor', firstNonFinite: { a: null, b: { step: n, stage: 'code-predictor' } } });
    expect(r.b.numerics.nan.codePredictor).toBeGreaterThan(0);
    expect(r.a.numerics.nan.codePredictor).toBe(0);
  });

  it('stream vocoder without left context: stage vocoder, first difference at the first chunk boundary', async () => {
    const manifest = JSON.parse(readFileSync(join(await resolveDemoBundle(), 'bundle.json'), 'utf8'));
    const samplesPerFrame = manifest.sampleRate / manifest.frameRate;
    // Chunk 1 has no left context in either run, so the first difference is chunk 2's first sample.
    const boundary = manifest.vocoder.chunkFrames * samplesPerFrame;
    const r = await compare('graph,vocoder=stream', 'graph,vocoder=stream,fault=no-left-context');
    expect(r.divergence).toMatchObject({ stage: 'vocoder', firstDifferingSample: boundary, vocoderFrame: manifest.vocoder.chunkFrames + 1 });
    expect(r.divergence.timeSec).toBeCloseTo(boundary / manifest.sampleRate, 9);
  });

  it('eager vs eager,ep=cuda on a machine without CUDA: B ran on cpu and says why', async () => {
    const r = await compare('eager', 'eager,ep=cuda');
    expect(r.b.executionProvider).toBe('cpu');
    expect(r.b.fallback).toBeTruthy();
    expect(r.a.fallback).toBeUndefined();
  });

  it('--fail-on diverged exits 1 on a divergence; a bad profile exits 2 naming the key', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--json', '--fail-on', 'diverged'], { env, timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    const bad = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,vocodr=stream']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('parity compare: profile "graph,vocodr=stream": unknown key "vocodr" (known: vocoder, bucket, cache, batch, ep, precision, backend, fault)\n');
  });
});
