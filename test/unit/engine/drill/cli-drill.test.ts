import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComparisonReport } from '../../../../electron/common/report/comparison-report.js';
import { runParity } from '../../../cli/run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-drill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parity compare --drill', () => {
  it('graph vs graph,fault=stale-feedback@2: prints and stores the drill naming the talker audio-feedback input at step 2', async () => {
    const out = join(dir, 'fx');
    const run = await runParity(['compare', '--text', 'Drill into the step.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--drill', '--out', out], {
      env: { SOURCE_DATE_EPOCH: '1700000000' },
      timeoutMs: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const line = "Drill-down: input inputs_embeds (audio feedback: sum of the previous frame's code embeddings) differs at step 2 (talker)";
    expect(run.stdout).toContain(line);
    const report = ComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.drill).toMatchObject({ status: 'found', step: 2, network: 'talker', input: { name: 'inputs_embeds' } });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('### Drill-down');
    expect(md).toContain('--drill');
  });

  it('a bad --drill-tol is a usage error naming the flag value', async () => {
    const run = await runParity(['compare', '--text', 'x', '--a', 'graph', '--b', 'graph', '--drill', '--drill-tol', 'abc']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('"abc"');
  });
});
