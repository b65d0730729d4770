import { InputError } from '../errors.js';
import type { DivergenceStage } from '../forensics/divergence.js';
import { quantilesOf } from './quantiles.js';
import type { ShardLines } from './shard-lines.js';
import { caseKey, type SweepHeader } from './sweep-case.js';
import { SWEEP_SUMMARY_SCHEMA, type SummaryCase, type SweepSummary } from './sweep-summary.js';
import { worstCases } from './sweep-order.js';

/** A shard file read back, with the name it is reported by. */
export interface NamedShard extends ShardLines {
  file: string;
}

export interface MergeOptions {
  /** How many worst cases the summary names (default 5). */
  worst?: number;
  /** Folder names of the worst cases' fixtures, by key, when they are written. */
  fixtures?: ReadonlyMap<string, string>;
}

/** Header fields that every shard of one sweep shares; shard and planned are each shard's own. */
const SHARED: (keyof SweepHeader)[] = ['mode', 'a', 'b', 'bundle', 'sampling', 'corpusSha256', 'totalCases', 'unpaired'];

function checkSameSweep(shards: NamedShard[]): SweepHeader {
  if (shards.length === 0) throw new InputError('no shard files to merge (expected shard-*.jsonl files written by parity sweep)');
  const first = shards[0];
  for (const s of shards.slice(1)) {
    for (const field of [...SHARED, 'shard.count']) {
      const pick = (h: SweepHeader) => JSON.stringify(field === 'shard.count' ? h.shard.count : h[field as keyof SweepHeader]);
      if (pick(s.header) !== pick(first.header)) {
        throw new InputError(`${s.file} is from a different sweep than ${first.file}: ${field} ${pick(s.header) ?? 'absent'} vs ${pick(first.header) ?? 'absent'}`, s.file);
      }
    }
  }
  return first.header;
}

/**
 * A case line must be one its shard planned, at an index inside the sweep, and no other case may hold
 * that index: otherwise the counts (missing = total - cases) would be wrong, so the shard is refused.
 */
function checkAgainstPlan(shard: NamedShard, plan: ReadonlySet<string>, key: string, index: number, total: number, keyAtIndex: Map<number, string>): void {
  const refuse = (problem: string): never => {
    throw new InputError(`${shard.file}: case "${key}" ${problem}; the file was edited or mixed with another sweep's lines: run that shard again`, shard.file);
  };
  if (!plan.has(key)) refuse(`is not in this shard's plan (the "planned" list of its header, ${plan.size} cases)`);
  if (index >= total) refuse(`has index ${index}, past the sweep's ${total} cases (totalCases; indexes are 0..${total - 1})`);
  const other = keyAtIndex.get(index);
  if (other !== undefined && other !== key) refuse(`has index ${index}, which case "${other}" already holds`);
  keyAtIndex.set(index, key);
}

function sameResult(x: SummaryCase, y: SummaryCase): boolean {
  return JSON.stringify(x) === JSON.stringify(y);
}

function histogram(steps: number[]): { step: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const s of steps) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort(([x], [y]) => x - y).map(([step, count]) => ({ step, count }));
}

/**
 * Merges the shard files of one sweep into its summary. Pure: the result depends only on the set of
 * cases (sorted by their sweep index), not on the number of shards, their order or the timings, so
 * merging shards 1/3, 2/3, 3/3 gives the bytes of the unsharded run's summary. Shards of different
 * sweeps are refused, and so is a line its shard did not plan, at an index past the total or one
 * another case holds; missing shards, missing, duplicate and conflicting cases are reported.
 */
export function mergeShards(shards: NamedShard[], options: MergeOptions = {}): SweepSummary {
  const header = checkSameSweep(shards);
  const byKey = new Map<string, SummaryCase>();
  const duplicates = new Set<string>();
  const conflicts = new Set<string>();
  const keyAtIndex = new Map<number, string>();
  for (const shard of shards) {
    const plan = new Set(shard.header.planned);
    for (const line of shard.cases) {
      const { timings: _timings, ...c } = line;
      const key = caseKey(c);
      checkAgainstPlan(shard, plan, key, c.index, header.totalCases, keyAtIndex);
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, c);
      else (sameResult(seen, c) ? duplicates : conflicts).add(key);
    }
  }
  const cases = [...byKey.values()].sort((x, y) => x.index - y.index);
  const planned = new Set(shards.flatMap((s) => s.header.planned));
  const present = new Set(shards.map((s) => s.header.shard.index));
  const missingShards = Array.from({ length: header.shard.count }, (_, i) => i + 1).filter((i) => !present.has(i));
  const count = (v: SummaryCase['verdict']) => cases.filter((c) => c.verdict === v).length;
  const diverged = cases.filter((c): c is SummaryCase & { firstStep: number } => c.firstStep !== null);
  const stepHistogram = histogram(diverged.map((c) => c.firstStep));
  const stages = [...new Set(diverged.map((c) => c.stage).filter((s): s is DivergenceStage => s !== null))].sort();
  const mode = stepHistogram.reduce<{ step: number; count: number } | null>((best, h) => (best === null || h.count > best.count ? h : best), null);
  const summary: SweepSummary = {
    schema: SWEEP_SUMMARY_SCHEMA,
    mode: header.mode,
    a: header.a,
    b: header.b,
    ...(header.bundle === undefined ? {} : { bundle: header.bundle }),
    ...(header.sampling === undefined ? {} : { sampling: header.sampling }),
    corpusSha256: header.corpusSha256,
    totalCases: header.totalCases,
    counts: {
      identical: count('identical'),
      'within-tolerance': count('within-tolerance'),
      diverged: count('diverged'),
      'degenerate-audio': count('degenerate-audio'),
      error: count('error'),
      missing: Math.max(0, header.totalCases - cases.length),
    },
    flips: {
      'near-tie': cases.filter((c) => c.flip === 'near-tie').length,
      real: cases.filter((c) => c.flip === 'real').length,
      unknown: cases.filter((c) => c.flip === 'unknown').length,
    },
    firstStep: {
      histogram: stepHistogram,
      byStage: stages.map((stage) => ({ stage, histogram: histogram(diverged.filter((c) => c.stage === stage).map((c) => c.firstStep)) })),
      mode: mode?.step ?? null,
    },
    distributions: {
      correlation: quantilesOf(cases.map((c) => c.correlation)),
      loudnessDeltaLU: quantilesOf(cases.map((c) => c.loudnessDeltaLU)),
      mcdDb: quantilesOf(cases.map((c) => c.mcdDb)),
    },
    worst: worstCases(cases, options.worst ?? 5).map((c) => {
      const key = caseKey(c);
      const fixture = options.fixtures?.get(key);
      return fixture === undefined ? { key } : { key, fixture };
    }),
    problems: {
      missingShards,
      missing: [...planned].filter((k) => !byKey.has(k)).sort(),
      duplicates: [...duplicates].sort(),
      conflicts: [...conflicts].sort(),
      unpaired: header.unpaired ?? [],
    },
    cases,
  };
  return summary;
}
