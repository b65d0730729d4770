import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { mergeShards, type NamedShard } from '../../../../electron/common/sweep/merge-shards.js';
import { caseLine, headerLine, parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { checkSummaryCounts } from '../../../../electron/common/sweep/summary-counts.js';
import { SWEEP_SCHEMA, type SweepCase } from '../../../../electron/common/sweep/sweep-case.js';
import type { SweepSummary } from '../../../../electron/common/sweep/sweep-summary.js';

// Issue 27 item 5: `sweep merge` under-counted missing cases when a shard held an id not in its plan
// (missing = total - lines) and accepted an index past totalCases; `sweep gate` trusted counts edited in
// sweep.json. Every line is now checked against its shard's plan, and a summary against its own cases.

const TOTAL = 6;
function makeCase(index: number, verdict: SweepCase['verdict'], id = `p${index}`): SweepCase {
  const diverged = verdict === 'diverged';
  return {
    index, id, seed: 0, verdict, firstStep: diverged ? 2 : null, stage: diverged ? 'talker-logits' : null, codebook: diverged ? 0 : null,
    reconverges: diverged ? false : null, flip: diverged ? 'real' : null, correlation: diverged ? 0.5 : 1, nullDepthDb: -10,
    loudnessDeltaLU: 0, lsdDb: 1, mcdDb: 0, timings: { aMs: 1, bMs: 1, wallMs: 1 },
  };
}
const CASES = [makeCase(0, 'identical'), makeCase(1, 'diverged'), makeCase(2, 'identical'), makeCase(3, 'diverged'), makeCase(4, 'error'), makeCase(5, 'identical')];

/** Shard i of 2 planning cases i-1, i+1, …; `lines` are what the file holds (its planned cases unless given). */
function shard(index: number, lines?: SweepCase[]): NamedShard {
  const planned = CASES.filter((c) => c.index % 2 === index - 1);
  const header = { schema: SWEEP_SCHEMA, mode: 'profiles', a: 'graph', b: 'eager', bundle: 'demo', corpusSha256: 'a'.repeat(64), totalCases: TOTAL, shard: { index, count: 2 }, planned: planned.map((c) => `${c.id}@${c.seed}`) } as const;
  const text = headerLine(header) + (lines ?? planned).map(caseLine).join('');
  return { ...parseShardLines(text, `shard-${index}.jsonl`), file: `shard-${index}.jsonl` };
}

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('sweep merge checks every line against its shard plan', () => {
  it('the honest shards merge, with nothing missing', () => {
    expect(mergeShards([shard(1), shard(2)]).counts.missing).toBe(0);
  });

  // Each is one line a shard should not hold; the index and key say which rule it breaks.
  const FORGED: [string, SweepCase, RegExp][] = [
    ['an id its plan does not hold (in place of a planned one)', makeCase(0, 'identical', 'stranger'), /case "stranger@0" is not in this shard's plan/],
    ["an id of the other shard's plan", makeCase(1, 'diverged'), /case "p1@0" is not in this shard's plan/],
    ['an index past totalCases', { ...makeCase(2, 'identical'), index: TOTAL }, /case "p2@0" has index 6, past the sweep's 6 cases/],
    ['an index far past totalCases', { ...makeCase(4, 'error'), index: 10 ** 9 }, /has index 1000000000, past the sweep's 6 cases/],
    ['an index another case holds', { ...makeCase(2, 'identical'), index: 0 }, /case "p2@0" has index 0, which case "p0@0" already holds/],
  ];
  it.each(FORGED)('%s is refused naming the file and the case', (_what, line, words) => {
    const lines = [...CASES.filter((c) => c.index % 2 === 0 && c.id !== line.id), line];
    const message = refusal(() => mergeShards([shard(1, lines), shard(2)]));
    expect(message).toMatch(/^shard-1\.jsonl: /);
    expect(message).toMatch(words);
  });

  it('a stranger among all planned lines no longer hides a missing case', () => {
    const lines = [makeCase(0, 'identical'), makeCase(2, 'identical'), makeCase(4, 'error', 'x')];
    expect(refusal(() => mergeShards([shard(1, lines), shard(2)]))).toMatch(/case "x@0" is not in this shard's plan/);
  });
});

describe('sweep gate recomputes the counts from the cases', () => {
  const honest = (): SweepSummary => JSON.parse(JSON.stringify(mergeShards([shard(1), shard(2)]))) as SweepSummary;

  it('an honest summary passes the check', () => {
    expect(() => checkSummaryCounts(honest(), 'sweep.json')).not.toThrow();
  });

  const EDITS: [string, (s: SweepSummary) => void, string][] = [
    ['counts.diverged set to 0', (s) => (s.counts.diverged = 0), 'counts.diverged is 0, but its cases give 2'],
    ['counts.identical raised', (s) => (s.counts.identical += 1), 'counts.identical is 4, but its cases give 3'],
    ['counts.within-tolerance raised', (s) => (s.counts['within-tolerance'] = 2), 'counts.within-tolerance is 2, but its cases give 0'],
    ['counts.error set to 0', (s) => (s.counts.error = 0), 'counts.error is 0, but its cases give 1'],
    ['counts.missing left at 0 over a dropped case', (s) => { s.cases.pop(); s.counts.identical -= 1; }, 'counts.missing is 0, but its cases give 1'],
    ['totalCases lowered', (s) => (s.totalCases = 3), '6 cases, more than totalCases (3)'],
    ['a case index past totalCases', (s) => (s.cases[5].index = 99), 'case "p5@0" has index 99, past totalCases (6)'],
    ['two cases with one index', (s) => (s.cases[1].index = 0), 'cases "p0@0" and "p1@0" both have index 0'],
    ['a verdict edited without its count', (s) => (s.cases[1].verdict = 'identical'), 'counts.identical is 3, but its cases give 4'],
    ['flips.real set to 0', (s) => (s.flips.real = 0), 'flips.real is 0, but its cases give 2'],
    ['flips.near-tie raised', (s) => (s.flips['near-tie'] = 1), 'flips.near-tie is 1, but its cases give 0'],
  ];
  it.each(EDITS)('%s: refused naming the field, what it says and what the cases give', (_what, edit, words) => {
    const s = honest();
    edit(s);
    expect(refusal(() => checkSummaryCounts(s, 'sweep.json'))).toBe(`sweep.json: ${words}; the file was edited or damaged: run parity sweep merge again`);
  });
});
