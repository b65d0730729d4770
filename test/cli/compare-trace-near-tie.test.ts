import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-trace-tie-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// Written by hand, as a foreign engine would (talker logits only, no code-predictor logits). At step 2
// A picks 81 (2.5 over 65 at 2.4375), B picks 65 (2.5 over 81 at 2.46875): the codes' logit difference
// moved by 0.0625 + 0.03125 = 0.09375.
const HEADER = (extra = '') => `{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000${extra}}`;
const top = (pairs: [number, number][]) => pairs.map(([id, logit]) => `{"id":${id},"logit":${logit}}`).join(',');
const step = (n: number, pairs: [number, number][], codes: [number, number]) =>
  `{"step":${n},"logits":{"mean":0,"std":1,"min":-3,"max":${pairs[0][1]},"argmax":${pairs[0][0]},"top5":[${top(pairs)}]},"codes":[${codes.join(',')}]}`;
const PLAIN: [number, number][] = [[7, 3], [8, 2], [9, 1.5], [10, 1.25], [11, 1]];
const A2: [number, number][] = [[81, 2.5], [65, 2.4375], [3, 2], [4, 1.75], [5, 1.5]];
const B2: [number, number][] = [[65, 2.5], [81, 2.46875], [3, 2], [4, 1.75], [5, 1.5]];
const trace = (second: [number, number][], code: number, extra = '') => [HEADER(extra), step(1, PLAIN, [7, 1]), step(2, second, [code, 1])].join('\n') + '\n';

describe('parity compare-trace: near-tie flips and teacher-forced traces from another engine', () => {
  it('labels the flip near-tie under the default gap and real under --near-tie-gap 0.05, which the reproduce command keeps', async () => {
    const a = file('a.jsonl', trace(A2, 81));
    const b = file('b.jsonl', trace(B2, 65));
    const out = join(dir, 'strict');
    const [loose, strict] = await Promise.all([runParity(['compare-trace', a, b]), runParity(['compare-trace', a, b, '--near-tie-gap', '0.05', '--out', out])]);
    expect(loose.status).toBe(0);
    expect(loose.stdout).toContain('Verdict: diverged at a near-tie (numerically equivalent) (over the traces only: audio not compared)');
    expect(loose.stdout).toContain('Codes first differ: step 2, codebook 0 (A 81, B 65): near-tie flip; top-1 − top-2 gap A 0.063, B 0.031');
    expect(strict.stdout).toContain('Codes first differ: step 2, codebook 0 (A 81, B 65): real flip');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('--near-tie-gap 0.05 --out');
  });

  it('a header saying teacherForced makes compare-trace report the drift and would-flips', async () => {
    const a = file('ta.jsonl', trace(A2, 81));
    const b = file('tb.jsonl', trace(B2, 65, ',"teacherForced":"A: reference run"'));
    const run = await runParity(['compare-trace', a, b, '--json']);
    expect(run.status).toBe(0);
    const report = TraceComparisonReport.parse(JSON.parse(run.stdout));
    // Step 2's drift: rank-2 logit 2.4375 vs 2.46875.
    expect(report.teacherForced).toMatchObject({ curve: [0, 0.03125], counts: { nearTie: 1, real: 0, unknown: 0 }, numericallyEquivalent: true });
  });
});
