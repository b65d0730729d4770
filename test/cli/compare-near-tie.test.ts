import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const TEXT = 'Hello world, this is a parity test.';
const env = { SOURCE_DATE_EPOCH: '1700000000' };
const tmp = mkdtempSync(join(tmpdir(), 'parity-near-tie-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parity compare: near-tie flips in the summary and report.md', () => {
  it('graph vs fp16 reads "diverged at a near-tie"; --near-tie-gap below its pair drift makes it real and is in the reproduce command', async () => {
    const out = join(tmp, 'strict');
    const [loose, strict] = await Promise.all([
      runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,precision=fp16'], { env, timeoutMs: 60_000 }),
      runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,precision=fp16', '--near-tie-gap', '0.001', '--out', out], { env, timeoutMs: 60_000 }),
    ]);
    expect(loose.status).toBe(0);
    expect(loose.stdout).toContain('Verdict: diverged at a near-tie (numerically equivalent)\n');
    expect(loose.stdout).toMatch(/Codes first differ: step 13, codebook 5 \(A 81, B 65\): near-tie flip; top-1 − top-2 gap A 2\.4e-3, B 0\n/);
    expect(strict.status).toBe(0);
    expect(strict.stdout).toContain('Verdict: diverged\n');
    expect(strict.stdout).toContain('near-tie gap 0.001');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('- Codes first differ: step 13, codebook 5 (A 81, B 65): real flip');
    expect(md).toContain('--near-tie-gap 0.001 --out');
  });

  it('a negative --near-tie-gap is refused in one line, exit 2', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'eager', '--near-tie-gap', '-1'], { env });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--near-tie-gap');
  });
});
