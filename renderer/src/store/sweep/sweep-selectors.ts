import type { SummaryCase, SweepSummary } from '../../../../electron/common/sweep/sweep-summary.js';
import { caseKey } from '../../../../electron/common/sweep/sweep-case.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';
import type { SweepSortKey } from './sweep-slice.js';

const VERDICT_ORDER = { error: 0, diverged: 1, 'within-tolerance': 2, identical: 3 } as const;

/** A sortable number for a case's column; missing and NaN values sort last whatever the direction. */
function value(c: SummaryCase, key: SweepSortKey): number | undefined {
  if (key === 'verdict') return VERDICT_ORDER[c.verdict];
  const v = c[key];
  return v === null || Number.isNaN(v) ? undefined : v;
}

const sorted = memoByRef((sort: StudioState['sweepSort']) =>
  memoByRef((summary: SweepSummary) =>
    [...summary.cases].sort((x, y) => {
      const [a, b] = [value(x, sort.key), value(y, sort.key)];
      if (a === undefined || b === undefined) return a === b ? x.index - y.index : a === undefined ? 1 : -1;
      return (sort.descending ? b - a : a - b) || x.index - y.index;
    }),
  ),
);

const NONE: SummaryCase[] = [];

export const sweepSelectors = {
  summary: (s: StudioState) => s.sweep?.summary,
  name: (s: StudioState) => s.sweep?.name,
  sort: (s: StudioState) => s.sweepSort,
  /** The cases in the table's order (the same array while the sweep and the sort stay). */
  cases: (s: StudioState) => (s.sweep ? sorted(s.sweepSort)(s.sweep.summary) : NONE),
  /** `id@seed` of the worst cases, for marking their rows. */
  worstKeys: memoByRef((s: SweepSummary) => new Set(s.worst.map((w) => w.key))),
  key: caseKey,
};
