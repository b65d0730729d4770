import { nonFiniteReplacer } from '../report/json-number.js';
import type { StepRecord } from './step-record.js';
import type { TraceHeader } from './trace-format.js';

/** One JSON object per line, header first; non-finite numbers as "NaN"/"Infinity" strings. */
export function writeTrace(header: TraceHeader, steps: readonly StepRecord[]): string {
  const lines = [JSON.stringify(header, nonFiniteReplacer)];
  for (const step of steps) lines.push(JSON.stringify(step, nonFiniteReplacer));
  return lines.join('\n') + '\n';
}
