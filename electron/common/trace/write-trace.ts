import { nonFiniteReplacer } from '../report/json-number.js';
import type { TraceStep } from './step-record.js';
import type { TraceHeader } from './trace-format.js';

/** One JSON object per line, header first; non-finite numbers as "NaN"/"Infinity" strings. Our engine's steps are full records. */
export function writeTrace(header: TraceHeader, steps: readonly TraceStep[]): string {
  const lines = [JSON.stringify(header, nonFiniteReplacer)];
  for (const step of steps) lines.push(JSON.stringify(step, nonFiniteReplacer));
  return lines.join('\n') + '\n';
}
