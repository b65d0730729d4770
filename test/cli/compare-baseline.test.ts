import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComparisonReport } from '../../electron/common/report/comparison-report.js';
import { runParity } from './run-parity.js';
import { CHECKOUT_PARITY } from '../setup/checkout-parity.js';

const TEXT = 'Hello world, this is a parity test.';
const env = { SOURCE_DATE_EPOCH: '1700000000' };
const tmp = mkdtempSync(join(tmpdir(), 'parity-baseline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parity compare --baseline', () => {
  it('reports each CPU profile deterministic apart from A vs B, in the summary, report.json and report.md; the folder passes the gate', async () => {
    const out = join(tmp, 'fixture');
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,precision=fp16', '--baseline', '--out', out], { env, timeoutMs: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Determinism baseline (each profile run twice):\n  A (graph): deterministic');
    expect(run.stdout).toContain('  B (graph,precision=fp16): deterministic');
    expect(run.stdout).toContain('A vs B: each profile repeats itself within tolerance, so the divergence at step 1 is between the profiles');
    const report = ComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.baseline?.a.deterministic).toBe(true);
    expect(report.baseline?.b.deterministic).toBe(true);
    expect(report.rerun.baseline).toBe(true);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('### Determinism baseline (each profile run twice)\n\n- A (graph): deterministic');
    const reproduce = md.split('\n').find((line) => line.startsWith(`${CHECKOUT_PARITY} compare `));
    expect(reproduce).toMatch(/ --baseline --out /);
    const gate = await runParity(['gate', out], { env, timeoutMs: 60_000 });
    expect(gate.stdout).toContain('PASS');
    expect(gate.status).toBe(0);
  });
});
