import type { StageCounts, StepRecord } from './step-record.js';

/** NaN and Inf totals per stage over a synthesis's steps (steps without counts add nothing). */
export function numericsTotals(steps: readonly StepRecord[]): { nan: StageCounts; inf: StageCounts } {
  const nan: StageCounts = { talker: 0, codePredictor: 0, vocoder: 0 };
  const inf: StageCounts = { talker: 0, codePredictor: 0, vocoder: 0 };
  for (const r of steps) {
    for (const k of ['talker', 'codePredictor', 'vocoder'] as const) {
      nan[k] += r.nan?.[k] ?? 0;
      inf[k] += r.inf?.[k] ?? 0;
    }
  }
  return { nan, inf };
}
