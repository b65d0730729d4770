import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepSummary } from '../../electron/common/sweep/sweep-summary.js';
import { runParity } from './run-parity.js';

// Two folders of traces as another engine would write them (here by parity compare --out), paired by name.
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-traces-'));
const [A, B] = [join(dir, 'A'), join(dir, 'B')];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const fault = join(dir, 'fault');
  const same = join(dir, 'same');
  expect((await runParity(['compare', '--text', 'Hi there.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--out', fault], { timeoutMs: 30_000 })).status).toBe(0);
  expect((await runParity(['compare', '--text', 'Yes.', '--a', 'graph', '--b', 'graph', '--out', same], { timeoutMs: 30_000 })).status).toBe(0);
  mkdirSync(A);
  mkdirSync(B);
  for (const [side, folder] of [['a', A], ['b', B]]) {
    copyFileSync(join(fault, `${side}.jsonl`), join(folder, 'p1.jsonl'));
    copyFileSync(join(fault, `${side}.wav`), join(folder, 'p1.wav'));
    copyFileSync(join(same, `${side}.jsonl`), join(folder, 'p2.jsonl')); // no WAVs: steps only
    writeFileSync(join(folder, 'p3.jsonl'), '{"not":"a trace"}\n');
  }
  copyFileSync(join(same, 'a.jsonl'), join(A, 'only-a.jsonl'));
}, 60_000);

describe('parity sweep --traces', () => {
  it('compares the pairs by name, records an unreadable pair as an error, lists unpaired names, and writes no fixtures', async () => {
    const out = join(dir, 'out');
    const run = await runParity(['sweep', '--traces', A, B, '--out', out], { timeoutMs: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('sweep: shard 1/1 (no shard given: the whole sweep): 3 cases');
    const merged = join(dir, 'merged');
    const merge = await runParity(['sweep', 'merge', out, '--out', merged], { timeoutMs: 30_000 });
    expect(merge.status).toBe(0);
    const s = SweepSummary.parse(JSON.parse(readFileSync(join(merged, 'sweep.json'), 'utf8')));
    expect(s.mode).toBe('traces');
    expect(s.cases.map((c) => [c.id, c.verdict, c.firstStep])).toEqual([
      ['p1', 'diverged', 2],
      ['p2', 'within-tolerance', null], // equal steps, but no audio compared, so not "identical"
      ['p3', 'error', null],
    ]);
    expect(s.cases[0].correlation).not.toBeNull();
    expect(s.cases[1].correlation).toBeNull();
    expect(s.cases[2].error).toContain('p3.jsonl');
    expect(s.problems.unpaired).toEqual([`only-a (only in ${A})`]);
    expect(readdirSync(merged).sort()).toEqual(['sweep.html', 'sweep.json', 'sweep.md']);
    expect(existsSync(join(merged, 'sweep.md'))).toBe(true);
  }, 60_000);

  it('refuses folders with no name in common', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const run = await runParity(['sweep', '--traces', A, empty, '--out', join(dir, 'none')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no trace name (NAME.jsonl) is in both folders');
  });
});
