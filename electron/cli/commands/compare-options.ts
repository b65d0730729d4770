import { InvalidArgumentError } from 'commander';
import type { Tolerances } from '../../common/forensics/tolerances.js';

/** Options shared by `compare` and `compare-trace`: tolerances and the exit rule. */
export function nonNegative(what: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || text.trim() === '') throw new InvalidArgumentError(`expected ${what} >= 0, found "${text}"`);
    return value;
  };
}

export function positive(what: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`expected ${what} > 0, found "${text}"`);
    return value;
  };
}

export function parseFailOn(text: string): 'diverged' | 'within-tolerance' {
  if (text === 'diverged' || text === 'within-tolerance') return text;
  throw new InvalidArgumentError(`expected "diverged" (exit 1 when diverged) or "within-tolerance" (exit 1 unless identical), found "${text}"`);
}

export function tolerancesFrom(o: { logitTol?: number; logitRelTol?: number; audioTol?: number }): Partial<Omit<Tolerances, 'codes'>> {
  const t: Partial<Omit<Tolerances, 'codes'>> = {};
  if (o.logitTol !== undefined) t.logitAbs = o.logitTol;
  if (o.logitRelTol !== undefined) t.logitRel = o.logitRelTol;
  if (o.audioTol !== undefined) t.audioAbs = o.audioTol;
  return t;
}

/** Exit status for --fail-on: 1 when the verdict is at least as bad as the threshold. */
export function failOnStatus(verdict: string, failOn: 'diverged' | 'within-tolerance' | undefined): number {
  if (failOn === 'diverged') return verdict === 'diverged' ? 1 : 0;
  if (failOn === 'within-tolerance') return verdict === 'identical' ? 0 : 1;
  return 0;
}
