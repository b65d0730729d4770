import { describe, expect, it } from 'vitest';
import { mergeShards, type NamedShard } from '../../../../electron/common/sweep/merge-shards.js';
import { caseLine, headerLine, parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { SWEEP_SCHEMA, type SweepCase, type SweepHeader } from '../../../../electron/common/sweep/sweep-case.js';
import { stringifySummary } from '../../../../electron/common/sweep/sweep-summary.js';
import { renderSweepMarkdown } from '../../../../electron/common/sweep/sweep-markdown.js';

/** A hand-made case: step and stage only when it diverged. */
function makeCase(index: number, verdict: SweepCase['verdict'], correlation: number | null, firstStep: number | null = null, stage: SweepCase['stage'] = null): SweepCase {
  return {
    index,
    id: `p${index}`,
    seed: 0,
    verdict,
    firstStep,
    stage,
    codebook: firstStep === null ? null : 0,
    reconverges: firstStep === null ? null : false,
    flip: firstStep === null ? null : index === 2 ? 'near-tie' : 'real',
    correlation,
    nullDepthDb: verdict === 'identical' ? -Infinity : -10,
    loudnessDeltaLU: correlation === null ? null : (index % 3) - 1,
    lsdDb: 1,
    mcdDb: correlation === null ? null : index / 2,
    // Timings differ between runs and between sharded and unsharded runs; the summary must not carry them.
    timings: { aMs: 10 + index, bMs: 20 * index, wallMs: Math.random() * 100 },
  };
}

const CASES: SweepCase[] = [
  makeCase(0, 'diverged', 0.2, 2, 'talker-logits'),
  makeCase(1, 'identical', 1),
  makeCase(2, 'diverged', 0.5, 2, 'talker-logits'),
  makeCase(3, 'within-tolerance', 0.999),
  makeCase(4, 'diverged', Number.NaN, 7, 'vocoder'),
  makeCase(5, 'error', null),
  makeCase(6, 'diverged', 0.9, 3, 'code-predictor'),
];

function header(shard: { index: number; count: number }, planned: SweepCase[]): SweepHeader {
  return {
    schema: SWEEP_SCHEMA,
    mode: 'profiles',
    a: 'graph',
    b: 'graph,fault=stale-feedback@2',
    bundle: 'demo',
    corpusSha256: 'a'.repeat(64),
    totalCases: CASES.length,
    shard,
    planned: planned.map((c) => `${c.id}@${c.seed}`),
  };
}

/** Shard i of n as its file would hold it, lines in the order given, read back through the parser. */
function shardFile(index: number, count: number, order: (cs: SweepCase[]) => SweepCase[] = (cs) => cs): NamedShard {
  const mine = CASES.filter((c) => c.index % count === index - 1);
  const text = headerLine(header({ index, count }, mine)) + order(mine).map(caseLine).join('');
  return { ...parseShardLines(text, `shard-${index}`), file: `shard-${index}` };
}

describe('mergeShards', () => {
  it('gives the same bytes for 3 shards (lines in any order, files in any order) as for the unsharded run', () => {
    const whole = stringifySummary(mergeShards([shardFile(1, 1)]));
    const sharded = stringifySummary(mergeShards([shardFile(3, 3), shardFile(1, 3, (cs) => [...cs].reverse()), shardFile(2, 3)]));
    expect(sharded).toBe(whole);
    expect(renderSweepMarkdown(mergeShards([shardFile(2, 3), shardFile(1, 3), shardFile(3, 3)]))).toBe(renderSweepMarkdown(mergeShards([shardFile(1, 1)])));
  });

  it('counts verdicts, histograms the first divergent step overall and by stage, and names the mode', () => {
    const s = mergeShards([shardFile(1, 1)]);
    expect(s.counts).toEqual({ identical: 1, 'within-tolerance': 1, diverged: 4, 'degenerate-audio': 0, error: 1, missing: 0 });
    expect(s.firstStep.histogram).toEqual([
      { step: 2, count: 2 },
      { step: 3, count: 1 },
      { step: 7, count: 1 },
    ]);
    expect(s.firstStep.byStage).toEqual([
      { stage: 'code-predictor', histogram: [{ step: 3, count: 1 }] },
      { stage: 'talker-logits', histogram: [{ step: 2, count: 2 }] },
      { stage: 'vocoder', histogram: [{ step: 7, count: 1 }] },
    ]);
    expect(s.firstStep.mode).toBe(2);
    expect(s.flips).toEqual({ 'near-tie': 1, real: 3, unknown: 0 });
  });

  it('gives quantiles of the finite values (type 7) and counts the others', () => {
    const s = mergeShards([shardFile(1, 1)]);
    // Finite correlations sorted: 0.2, 0.5, 0.9, 0.999, 1 (NaN of case 4 and the error's null left out).
    // Median at position 0.5·4 = 2 → 0.9; p25 at 1 → 0.5; p05 at 0.2 → 0.2 + 0.2·(0.5 − 0.2) = 0.26.
    expect(s.distributions.correlation).toMatchObject({ count: 5, nonFinite: 1, min: 0.2, p25: 0.5, p50: 0.9, max: 1 });
    expect(s.distributions.correlation.p05).toBeCloseTo(0.26, 12);
    expect(s.distributions.mcdDb).toMatchObject({ count: 6, min: 0, max: 3 });
  });

  it('orders the worst cases: errors, then diverged by correlation (NaN first), then the rest', () => {
    expect(mergeShards([shardFile(1, 1)], { worst: 4 }).worst.map((w) => w.key)).toEqual(['p5@0', 'p4@0', 'p0@0', 'p2@0']);
  });

  it('leaves timings out of the summary', () => {
    expect(stringifySummary(mergeShards([shardFile(1, 1)]))).not.toContain('wallMs');
  });

  it('reports a shard with no file and the cases it would have held as missing', () => {
    const s = mergeShards([shardFile(1, 3), shardFile(3, 3)]);
    expect(s.problems.missingShards).toEqual([2]);
    expect(s.counts.missing).toBe(2);
  });

  it('reports a case planned but not written (a shard stopped early) by key', () => {
    const cut = shardFile(1, 2);
    cut.cases = cut.cases.slice(0, -1);
    const s = mergeShards([cut, shardFile(2, 2)]);
    expect(s.problems.missing).toEqual(['p6@0']);
    expect(s.counts.missing).toBe(1);
  });

  it('keeps a case written twice once, as a duplicate, or as a conflict when the results differ', () => {
    const again = shardFile(1, 3);
    expect(mergeShards([shardFile(1, 3), again, shardFile(2, 3), shardFile(3, 3)]).problems.duplicates).toEqual(['p0@0', 'p3@0', 'p6@0']);
    const other = shardFile(1, 3);
    other.cases = other.cases.map((c) => (c.index === 3 ? { ...c, verdict: 'diverged' } : c));
    const s = mergeShards([shardFile(1, 3), other, shardFile(2, 3), shardFile(3, 3)]);
    expect(s.problems.conflicts).toEqual(['p3@0']);
    expect(s.cases.find((c) => c.index === 3)?.verdict).toBe('within-tolerance');
  });

  it('refuses to merge shards of different sweeps, naming the field', () => {
    const other = shardFile(2, 3);
    other.header = { ...other.header, b: 'eager' };
    expect(() => mergeShards([shardFile(1, 3), other])).toThrow('shard-2 is from a different sweep than shard-1: b "eager" vs "graph,fault=stale-feedback@2"');
    expect(() => mergeShards([shardFile(1, 3), shardFile(1, 2)])).toThrow('shard.count 2 vs 3');
    expect(() => mergeShards([])).toThrow('no shard files to merge');
  });
});

describe('parseShardLines', () => {
  const text = headerLine(header({ index: 1, count: 1 }, CASES)) + CASES.slice(0, 2).map(caseLine).join('');

  it('reads the header and the cases back, non-finite numbers included', () => {
    const read = parseShardLines(text, 'f');
    expect(read.cases).toHaveLength(2);
    expect(read.cases[1].nullDepthDb).toBe(-Infinity);
    expect(read.torn).toBe(false);
    expect(read.completeBytes).toBe(Buffer.byteLength(text));
  });

  it('detects a torn last line and says where the complete part ends', () => {
    const torn = text + caseLine(CASES[2]).slice(0, 30);
    const read = parseShardLines(torn, 'f');
    expect(read.torn).toBe(true);
    expect(read.cases).toHaveLength(2);
    expect(read.completeBytes).toBe(Buffer.byteLength(text));
  });

  it('refuses a broken line that is not the last, with file:line', () => {
    const lines = text.split('\n');
    lines[1] = lines[1].slice(0, 20);
    expect(() => parseShardLines(lines.join('\n'), 'f')).toThrow('f:2: not a JSON line');
  });

  it('refuses a file whose first line is no sweep header, and a case line of the wrong shape', () => {
    expect(() => parseShardLines(caseLine(CASES[0]), 'f')).toThrow('f:1: not a sweep shard header');
    expect(() => parseShardLines(text + '{"index":"x"}\n', 'f')).toThrow('f:4: not a sweep case line (index');
  });
});
