import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComparisonReport } from '../../electron/common/report/comparison-report.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-compare-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { SOURCE_DATE_EPOCH: '1700000000' };

describe('parity compare: a requested fault that does not act is said loudly', () => {
  it('nan@talker:4 on a 3-frame prompt: warning on stderr and in report.md, b.faults says why, exit 2', async () => {
    // "..." is 3 characters: the demo bundle renders it in 3 frames, so step 4 never runs.
    const out = join(dir, 'late');
    const run = await runParity(['compare', '--text', '...', '--a', 'graph', '--b', 'graph,fault=nan@talker:4', '--out', out], { env, timeoutMs: 60_000 });
    const reason = 'step 4 never ran: the synthesis ended after 3 steps';
    expect(run.stderr).toContain(`warning: B (graph,fault=nan@talker:4): fault nan@talker:4 was not applied: ${reason}`);
    expect(run.stderr).toContain('none of the requested faults was applied');
    expect(run.status).toBe(2);
    const report = ComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.b.faults).toEqual([{ fault: 'nan@talker:4', applied: false, reason }]);
    expect(report.a.faults).toBeUndefined();
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`> **Warning:** B (graph,fault=nan@talker:4): fault nan@talker:4 was not applied: ${reason}`);
  });

  it('fp16-overflow under fp32: a one-line notice that it acts only under precision=fp16', async () => {
    const run = await runParity(['compare', '--text', 'Hello there.', '--a', 'graph', '--b', 'graph,fault=fp16-overflow', '--json'], { env, timeoutMs: 60_000 });
    expect(run.stderr).toMatch(/^warning: B \(graph,fault=fp16-overflow\): fault fp16-overflow was not applied: it acts only under precision=fp16/m);
    expect(run.status).toBe(2);
  });

  it('synth does the same: the warning compare prints, the WAV still written, exit 2 when no fault acted', async () => {
    // "..." renders in 3 frames on the demo bundle (above), so step 200 never runs.
    const out = join(dir, 'late.wav');
    const run = await runParity(['synth', '--text', '...', '--profile', 'graph,fault=stale-feedback@200', '--out', out], { env, timeoutMs: 60_000 });
    expect(run.stderr.trim().split('\n')).toEqual([
      'warning: profile (graph,fault=stale-feedback@200): fault stale-feedback@200 was not applied: step 200 never ran: the synthesis ended after 3 steps',
      'parity synth: none of the requested faults was applied (stale-feedback@200); exit 2',
    ]);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain(`wrote ${out}: `);
    expect(existsSync(out)).toBe(true);
    const applied = await runParity(['synth', '--text', '...', '--profile', 'graph,fault=stale-feedback@2', '--out', join(dir, 'applied.wav'), '--json'], { env, timeoutMs: 60_000 });
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    expect(JSON.parse(applied.stdout).faults).toEqual([{ fault: 'stale-feedback@2', applied: true }]);
  });

  it('an applied fault records applied: true and prints no warning', async () => {
    const run = await runParity(['compare', '--text', 'Hello there.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--json'], { env, timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(ComparisonReport.parse(JSON.parse(run.stdout)).b.faults).toEqual([{ fault: 'stale-feedback@2', applied: true }]);
  });
});
