import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import type { StepRecord } from '../../../../electron/common/trace/step-record.js';
import { TRACE_SCHEMA, type TraceHeader } from '../../../../electron/common/trace/trace-format.js';

export const VOCAB = 64;

/** A deterministic talker logit row for a step: the same on both sides unless a test perturbs it. */
export function logitRow(step: number, salt = 0): Float32Array {
  return Float32Array.from({ length: VOCAB }, (_, i) => Math.sin(step * 1.3 + i * 0.71 + salt) * 4 + ((i * step) % 5) * 0.1);
}

/** A synthetic trace step: codes[0] is the argmax of the row, codes 1..q-1 a fixed function of the step. */
export function makeStep(step: number, q: number, row = logitRow(step)): StepRecord {
  const stats = logitStats(row);
  const codes = [stats.argmax, ...Array.from({ length: q - 1 }, (_, c) => (step * 7 + c * 3) % VOCAB)];
  const zero = { talker: 0, codePredictor: 0, vocoder: 0 };
  return { step, logits: stats, codes, nan: { ...zero }, inf: { ...zero } };
}

export function makeSteps(count: number, q: number): StepRecord[] {
  return Array.from({ length: count }, (_, i) => makeStep(i + 1, q));
}

export function header(q: number, extra: Partial<TraceHeader> = {}): TraceHeader {
  return { schema: TRACE_SCHEMA, engine: 'synthetic', q, frameRate: 12.5, sampleRate: 24000, ...extra };
}
