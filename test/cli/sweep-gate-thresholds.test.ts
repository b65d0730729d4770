import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// A shard file written by hand (no engine, no code of ours produced it), six cases whose outliers are
// counted by hand below. The gate reads the folder of shard files and merges it on the fly.
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shards = join(dir, 'shards');
mkdirSync(shards);

const header =
  '{"schema":"tts-parity-sweep/1","mode":"profiles","a":"graph","b":"eager","bundle":"demo","corpusSha256":"' +
  'a'.repeat(64) +
  '","totalCases":6,"shard":{"index":1,"count":1},"planned":["a@0","b@0","c@0","d@0","e@0","f@0"]}';
const line = (index: number, id: string, verdict: string, correlation: number | string, step: number | null) =>
  `{"index":${index},"id":"${id}","seed":0,"verdict":"${verdict}","firstStep":${step},"stage":${step === null ? 'null' : '"talker-logits"'},` +
  `"codebook":${step === null ? 'null' : 0},"reconverges":${step === null ? 'null' : 'false'},"flip":null,"correlation":${JSON.stringify(correlation)},` +
  `"nullDepthDb":null,"loudnessDeltaLU":null,"lsdDb":null,"mcdDb":null,"timings":{"aMs":1,"bMs":1,"wallMs":2}}`;
writeFileSync(
  join(shards, 'shard-001-of-1.jsonl'),
  [
    header,
    line(0, 'a', 'identical', 1, null),
    line(1, 'b', 'within-tolerance', 0.995, null),
    line(2, 'c', 'diverged', 0.5, 2), // exactly at --outlier-corr 0.5: not below it, so not an outlier there
    line(3, 'd', 'diverged', 0.4999, 2),
    line(4, 'e', 'diverged', 0.02, 2),
    line(5, 'f', 'diverged', 'NaN', 2), // not finite (a silent side): always an outlier
  ].join('\n') + '\n',
);

// By hand: with C = 0.5 the outliers are d, e, f (3); with the default C = 0.9 also c (4).
// Diverged: c, d, e, f = 4 of 6 = 0.6667.
const gate = (...flags: string[]) => runParity(['sweep', 'gate', shards, ...flags]);

describe('parity sweep gate --max-outliers K --outlier-corr C', () => {
  it('passes at exactly K outliers and fails at K + 1 (C = 0.5: d, e, f)', async () => {
    const pass = await gate('--max-outliers', '3', '--outlier-corr', '0.5');
    expect(pass.status).toBe(0);
    expect(pass.stdout).toContain('PASS outliers: outliers (correlation < 0.5, not finite, or error) 3 of 6 <= 3');
    expect(pass.stdout).toContain('outliers: d@0, e@0, f@0\n');
    const fail = await gate('--max-outliers', '2', '--outlier-corr', '0.5');
    expect(fail.status).toBe(1);
    expect(fail.stdout).toContain('FAIL outliers: outliers (correlation < 0.5, not finite, or error) 3 of 6 > 2');
    expect(fail.stdout).toContain('sweep gate: failed (1 of 3 checks)');
  });

  it('counts a case below the default C = 0.9 as an outlier (c at 0.5 joins: 4)', async () => {
    expect((await gate('--max-outliers', '4')).status).toBe(0);
    const fail = await gate('--max-outliers', '3');
    expect(fail.status).toBe(1);
    expect(fail.stdout).toContain('outliers: c@0, d@0, e@0, f@0\n');
  });

  it('moves a case across C: at C = 0.4999 d is not below it (2 outliers), at 0.50001 c is (4)', async () => {
    expect((await gate('--max-outliers', '2', '--outlier-corr', '0.4999')).status).toBe(0);
    expect((await gate('--max-outliers', '3', '--outlier-corr', '0.50001')).status).toBe(1);
  });

  it('fails when either threshold is breached: diverged 4 of 6 passes 0.67, fails 0.66', async () => {
    expect((await gate('--max-diverged-rate', '0.67', '--max-outliers', '3', '--outlier-corr', '0.5')).status).toBe(0);
    const rate = await gate('--max-diverged-rate', '0.66', '--max-outliers', '3', '--outlier-corr', '0.5');
    expect(rate.status).toBe(1);
    expect(rate.stdout).toContain('FAIL diverged-rate: diverged 4 of 6 (0.6667) > 0.66');
    expect(rate.stdout).toContain('PASS outliers');
  });

  it('refuses a correlation outside [-1, 1] and a negative K with exit 2 and one line', async () => {
    const c = await gate('--max-outliers', '1', '--outlier-corr', '1.5');
    expect(c.status).toBe(2);
    expect(c.stderr).toContain('expected a correlation in [-1, 1], found "1.5"');
    expect((await gate('--max-outliers', '-1')).status).toBe(2);
  });
});
