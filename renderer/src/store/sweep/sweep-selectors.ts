import type { SummaryCase, SweepSummary } from '../../../../electron/common/sweep/sweep-summary.js';
import { caseKey } from '../../../../electron/common/sweep/sweep-case.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';
import type { SweepFilter, SweepSortKey, SweepZoom } from './sweep-slice.js';

const VERDICT_ORDER = { error: 0, diverged: 1, 'within-tolerance': 2, identical: 3 } as const;

/** A sortable number for a case's column; missing and NaN values sort last whatever the direction. */
function value(c: SummaryCase, key: SweepSortKey): number | undefined {
  if (key === 'verdict') return VERDICT_ORDER[c.verdict];
  const v = c[key];
  return v === null || Number.isNaN(v) ? undefined : v;
}

/** Verdicts of the sweep opened beside, by case key. */
const verdictsOf = memoByRef((s: SweepSummary) => new Map(s.cases.map((c) => [caseKey(c), c.verdict] as const)));

/** The case is in both sweeps with different verdicts. */
function verdictChanged(before: Map<string, SummaryCase['verdict']>, c: SummaryCase): boolean {
  const was = before.get(caseKey(c));
  return was !== undefined && was !== c.verdict;
}

const changedCount = memoByRef((before: SweepSummary) => memoByRef((after: SweepSummary) => after.cases.filter((c) => verdictChanged(verdictsOf(before), c)).length));

function matches(c: SummaryCase, f: SweepFilter, zoom: SweepZoom, before: Map<string, SummaryCase['verdict']> | undefined, text: string): boolean {
  if (f.verdict !== 'all' && c.verdict !== f.verdict) return false;
  if (f.stage !== 'all' && c.stage !== f.stage) return false;
  if (f.flip !== 'all' && c.flip !== f.flip) return false;
  if (f.changedOnly && before && !verdictChanged(before, c)) return false;
  if (zoom) {
    const [x, y] = [c.correlation, c.loudnessDeltaLU];
    if (x === null || y === null || x < zoom.x[0] || x > zoom.x[1] || y < zoom.y[0] || y > zoom.y[1]) return false;
  }
  return text === '' || caseKey(c).toLowerCase().includes(text) || (c.text ?? '').toLowerCase().includes(text);
}

interface TableInput {
  summary: SweepSummary;
  before?: SweepSummary;
  sort: StudioState['sweepSort'];
  filter: SweepFilter;
  zoom: SweepZoom;
}

/** The last table computed, so the same inputs give the same array (zustand compares by reference). */
let last: { input: TableInput; rows: SummaryCase[] } | undefined;

function tableRows(input: TableInput): SummaryCase[] {
  if (last && (Object.keys(input) as (keyof TableInput)[]).every((k) => last!.input[k] === input[k])) return last.rows;
  const before = input.before ? verdictsOf(input.before) : undefined;
  const text = input.filter.text.trim().toLowerCase();
  const changed = (c: SummaryCase) => (before !== undefined && verdictChanged(before, c) ? 0 : 1);
  const { key, descending } = input.sort;
  const rows = input.summary.cases
    .filter((c) => matches(c, input.filter, input.zoom, before, text))
    .sort((x, y) => {
      const first = changed(x) - changed(y);
      if (first !== 0) return first;
      const [a, b] = [value(x, key), value(y, key)];
      if (a === undefined || b === undefined) return a === b ? x.index - y.index : a === undefined ? 1 : -1;
      return (descending ? b - a : a - b) || x.index - y.index;
    });
  last = { input, rows };
  return rows;
}

const NONE: SummaryCase[] = [];

export const sweepSelectors = {
  summary: (s: StudioState) => s.sweep?.summary,
  name: (s: StudioState) => s.sweep?.name,
  before: (s: StudioState) => s.sweepBefore,
  shown: (s: StudioState) => s.sweepShown,
  sort: (s: StudioState) => s.sweepSort,
  filter: (s: StudioState) => s.sweepFilter,
  zoom: (s: StudioState) => s.sweepZoom,
  /**
   * The table's cases: filtered (verdict, stage, flip, search text, the scatter's zoom) and sorted, with
   * the cases whose verdict changed from the sweep opened beside first. The same array for the same inputs.
   */
  cases: (s: StudioState) => (s.sweep ? tableRows({ summary: s.sweep.summary, before: s.sweepBefore?.summary, sort: s.sweepSort, filter: s.sweepFilter, zoom: s.sweepZoom }) : NONE),
  /** Verdicts of the sweep opened beside by case key (undefined: none open); the same map while it stays. */
  verdictsBefore: (s: StudioState) => (s.sweepBefore ? verdictsOf(s.sweepBefore.summary) : undefined),
  /** Cases whose verdict differs between the two sweeps (both hold the case). */
  changedCount: (s: StudioState) => (s.sweep && s.sweepBefore ? changedCount(s.sweepBefore.summary)(s.sweep.summary) : 0),
  /** `id@seed` of the worst cases, for marking their rows. */
  worstKeys: memoByRef((s: SweepSummary) => new Set(s.worst.map((w) => w.key))),
  key: caseKey,
};
