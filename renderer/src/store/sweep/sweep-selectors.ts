import type { SummaryCase, SweepSummary } from '../../../../electron/common/sweep/sweep-summary.js';
import { caseKey } from '../../../../electron/common/sweep/sweep-case.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';
import type { SweepFilter, SweepSortKey, SweepZoom } from './sweep-slice.js';

const VERDICT_ORDER = { error: 0, diverged: 1, 'degenerate-audio': 2, 'within-tolerance': 3, identical: 4 } as const;

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

function matches(c: SummaryCase, f: SweepFilter, zoom: SweepZoom, before: Map<string, SummaryCase['verdict']> | undefined, text: string, anyStep: boolean): boolean {
  if (f.verdict !== 'all' && c.verdict !== f.verdict) return false;
  if (f.steps && !anyStep && (c.firstStep === null || c.firstStep < f.steps.from || c.firstStep > f.steps.to)) return false;
  if (f.stage !== 'all' && c.stage !== f.stage) return false;
  if (f.flip !== 'all' && c.flip !== f.flip) return false;
  if (f.changedOnly && before && !verdictChanged(before, c)) return false;
  if (zoom) {
    const [x, y] = [c.correlation, c.loudnessDeltaLU];
    if (x === null || y === null || x < zoom.x[0] || x > zoom.x[1] || y < zoom.y[0] || y > zoom.y[1]) return false;
  }
  return text === '' || caseKey(c).toLowerCase().includes(text) || (c.text ?? '').toLowerCase().includes(text);
}

/** Remembers the last result for the last inputs (compared field by field), so the same inputs give the same array. */
function lastOf<I extends object, O>(derive: (input: I) => O): (input: I) => O {
  let last: { input: I; out: O } | undefined;
  return (input) => {
    if (last && (Object.keys(input) as (keyof I)[]).every((k) => last!.input[k] === input[k])) return last.out;
    last = { input, out: derive(input) };
    return last.out;
  };
}

type FilterInput = { summary: SweepSummary; before?: SweepSummary; filter: SweepFilter; zoom: SweepZoom };

/** The cases the filters keep, in sweep order; `anyStep`: all but the step range. */
function keep(input: FilterInput, anyStep: boolean): SummaryCase[] {
  const before = input.before ? verdictsOf(input.before) : undefined;
  const text = input.filter.text.trim().toLowerCase();
  return input.summary.cases.filter((c) => matches(c, input.filter, input.zoom, before, text, anyStep));
}

/** What the charts draw (a sort does not redraw them). */
const filteredRows = lastOf((input: FilterInput) => keep(input, false));
/** What the step histogram draws: its bins stay put while one of them is the filter. */
const anyStepRows = lastOf((input: FilterInput) => keep(input, true));

/** The kept cases in the table's order: changed verdicts first (two sweeps), then the sort column. */
const sortedRows = lastOf((input: { rows: SummaryCase[]; before?: SweepSummary; sort: StudioState['sweepSort'] }) => {
  const before = input.before ? verdictsOf(input.before) : undefined;
  const changed = (c: SummaryCase) => (before !== undefined && verdictChanged(before, c) ? 0 : 1);
  const { key, descending } = input.sort;
  return [...input.rows].sort((x, y) => {
    const first = changed(x) - changed(y);
    if (first !== 0) return first;
    const [a, b] = [value(x, key), value(y, key)];
    if (a === undefined || b === undefined) return a === b ? x.index - y.index : a === undefined ? 1 : -1;
    return (descending ? b - a : a - b) || x.index - y.index;
  });
});

const filterInput = (s: StudioState): FilterInput | undefined => s.sweep && { summary: s.sweep.summary, before: s.sweepBefore?.summary, filter: s.sweepFilter, zoom: s.sweepZoom };
const filtered = (s: StudioState) => {
  const input = filterInput(s);
  return input ? filteredRows(input) : NONE;
};

const NONE: SummaryCase[] = [];

export const sweepSelectors = {
  summary: (s: StudioState) => s.sweep?.summary,
  name: (s: StudioState) => s.sweep?.name,
  before: (s: StudioState) => s.sweepBefore,
  shown: (s: StudioState) => s.sweepShown,
  sort: (s: StudioState) => s.sweepSort,
  filter: (s: StudioState) => s.sweepFilter,
  zoom: (s: StudioState) => s.sweepZoom,
  /** The step range the histogram selects (sweepFilter.steps). */
  selectedSteps: (s: StudioState) => s.sweepFilter.steps,
  /** Cases in the sweep, whatever the filters. */
  caseCount: (s: StudioState) => s.sweep?.summary.cases.length ?? 0,
  /**
   * The table's cases: filtered (verdict, stage, flip, search text, the scatter's zoom) and sorted, with
   * the cases whose verdict changed from the sweep opened beside first. The same array for the same inputs.
   */
  cases: (s: StudioState) => (s.sweep ? sortedRows({ rows: filtered(s), before: s.sweepBefore?.summary, sort: s.sweepSort }) : NONE),
  shownCount: (s: StudioState) => sweepSelectors.cases(s).length,
  /** The cases the filters keep, in sweep order (the charts'). */
  filtered,
  /** The cases every filter but the step range keeps (the step histogram's). */
  filteredAnyStep: (s: StudioState) => {
    const input = filterInput(s);
    return input ? anyStepRows(input) : NONE;
  },
  /** Verdicts of the sweep opened beside by case key (undefined: none open); the same map while it stays. */
  verdictsBefore: (s: StudioState) => (s.sweepBefore ? verdictsOf(s.sweepBefore.summary) : undefined),
  /** Cases whose verdict differs between the two sweeps (both hold the case). */
  changedCount: (s: StudioState) => (s.sweep && s.sweepBefore ? changedCount(s.sweepBefore.summary)(s.sweep.summary) : 0),
  /** `id@seed` of the worst cases, for marking their rows. */
  worstKeys: memoByRef((s: SweepSummary) => new Set(s.worst.map((w) => w.key))),
  key: caseKey,
};
