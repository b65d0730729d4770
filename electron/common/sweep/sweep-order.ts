import type { SweepVerdict } from './sweep-case.js';
import { caseKey } from './sweep-case.js';
import type { SummaryCase } from './sweep-summary.js';

const RANK: Record<SweepVerdict, number> = { error: 0, diverged: 1, 'degenerate-audio': 2, 'within-tolerance': 3, identical: 4 };

/** Lower is worse: a missing or non-finite correlation is the worst a waveform can be. */
function correlationOrder(c: SummaryCase): number {
  return c.correlation === null || Number.isNaN(c.correlation) ? -Infinity : c.correlation;
}

function loudnessOrder(c: SummaryCase): number {
  return c.loudnessDeltaLU === null || Number.isNaN(c.loudnessDeltaLU) ? Infinity : Math.abs(c.loudnessDeltaLU);
}

/**
 * Worst first: errors, then diverged, within tolerance, identical; within a verdict the lower
 * correlation, then the larger |ΔLU|, then the earlier case. A total order, so the worst N do not
 * depend on the order the shards were read in.
 */
export function compareSeverity(x: SummaryCase, y: SummaryCase): number {
  return RANK[x.verdict] - RANK[y.verdict] || order(correlationOrder(x), correlationOrder(y)) || order(loudnessOrder(y), loudnessOrder(x)) || x.index - y.index;
}

/** -1, 0 or 1 (a plain difference would be NaN for two infinities). */
function order(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

export function worstCases(cases: SummaryCase[], n: number): SummaryCase[] {
  return [...cases].sort(compareSeverity).slice(0, n);
}

/** The folder name of a worst case's fixture: its rank and key, in file-name-safe characters. */
export function worstFixtureName(rank: number, c: { id: string; seed: number | null }): string {
  return `worst-${String(rank).padStart(2, '0')}-${caseKey(c).replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
