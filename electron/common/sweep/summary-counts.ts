import { InputError } from '../errors.js';
import { caseKey } from './sweep-case.js';
import type { SweepSummary } from './sweep-summary.js';

/**
 * A sweep.json read back must agree with its own case list before a gate trusts it: the verdict and flip
 * counts, `missing` (totalCases minus the cases), and every case index inside 0..totalCases-1 and held
 * once. An edited count (diverged: 0 over diverged cases) is refused naming the field, what the file
 * says and what its cases give; the gate then never passes on a number the cases contradict.
 */
export function checkSummaryCounts(summary: SweepSummary, file: string): void {
  const refuse = (problem: string): never => {
    throw new InputError(`${file}: ${problem}; the file was edited or damaged: run parity sweep merge again`, file);
  };
  const { cases, totalCases } = summary;
  if (cases.length > totalCases) refuse(`${cases.length} cases, more than totalCases (${totalCases})`);
  const seen = new Map<number, string>();
  for (const c of cases) {
    if (c.index >= totalCases) refuse(`case "${caseKey(c)}" has index ${c.index}, past totalCases (${totalCases})`);
    const other = seen.get(c.index);
    if (other !== undefined) refuse(`cases "${other}" and "${caseKey(c)}" both have index ${c.index}`);
    seen.set(c.index, caseKey(c));
  }
  const expected: [string, number, number][] = [
    ...(['identical', 'within-tolerance', 'diverged', 'degenerate-audio', 'error'] as const).map((v): [string, number, number] => [`counts.${v}`, summary.counts[v] ?? 0, cases.filter((c) => c.verdict === v).length]),
    ['counts.missing', summary.counts.missing, totalCases - cases.length],
    ...(['near-tie', 'real', 'unknown'] as const).map((f): [string, number, number] => [`flips.${f}`, summary.flips[f], cases.filter((c) => c.flip === f).length]),
  ];
  for (const [field, says, counted] of expected) {
    if (says !== counted) refuse(`${field} is ${says}, but its cases give ${counted}`);
  }
}
