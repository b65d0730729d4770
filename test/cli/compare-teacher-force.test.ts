import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComparisonReport, TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { readTrace } from '../../electron/common/trace/read-trace.js';
import { runParity } from './run-parity.js';
import { CHECKOUT_PARITY } from '../setup/checkout-parity.js';

const TEXT = 'Hello world, this is a parity test.';
const env = { SOURCE_DATE_EPOCH: '1700000000' };
const tmp = mkdtempSync(join(tmpdir(), 'parity-teacher-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parity compare --teacher-force', () => {
  it('writes the drift into the summary, report.json and report.md, marks b.jsonl teacher-forced; compare-trace on the folder finds the same drift; the gate passes', async () => {
    const out = join(tmp, 'fixture');
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,precision=fp16', '--teacher-force', '--out', out], { env, timeoutMs: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("B was fed A's codes at every step (teacher forcing)");
    expect(run.stdout).toMatch(/Would-flip steps \(B's own pick ≠ A's code\): (\d+) near-tie, 0 real, 0 unknown/);
    const report = ComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.teacherForced?.numericallyEquivalent).toBe(true);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('### Teacher forcing');
    const reproduce = md.split('\n').find((line) => line.startsWith(`${CHECKOUT_PARITY} compare `));
    expect(reproduce).toMatch(/ --teacher-force --out /);
    expect(readTrace(readFileSync(join(out, 'b.jsonl'), 'utf8'), 'b.jsonl').header.teacherForced).toBe('A: graph');
    expect(readTrace(readFileSync(join(out, 'a.jsonl'), 'utf8'), 'a.jsonl').header.teacherForced).toBeUndefined();

    const [traces, gate] = await Promise.all([
      runParity(['compare-trace', join(out, 'a.jsonl'), join(out, 'b.jsonl'), '--json'], { env, timeoutMs: 60_000 }),
      runParity(['gate', out], { env, timeoutMs: 60_000 }),
    ]);
    const fromTraces = TraceComparisonReport.parse(JSON.parse(traces.stdout));
    expect(fromTraces.teacherForced).toEqual(report.teacherForced);
    expect(gate.stdout).toContain('PASS');
    expect(gate.status).toBe(0);
  });
});
