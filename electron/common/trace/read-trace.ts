import type { z } from 'zod';
import { StepRecord } from './step-record.js';
import { TraceError } from './trace-error.js';
import { TRACE_SCHEMA, TraceHeader, type Trace } from './trace-format.js';

/** Longest line accepted: a step with per-codebook stats is ~2 kB; this only stops runaway input. */
const MAX_LINE = 1_000_000;

/**
 * Parses a `tts-parity-trace/1` file. Blank lines are skipped; everything else must be valid, and the
 * first problem is reported with its 1-based line number: `t.jsonl:7: step 6: "codes": expected 8 codes (q), found 7`.
 */
export function readTrace(text: string, file: string): Trace {
  const lines = text.split(/\r?\n/);
  let header: TraceHeader | undefined;
  const steps: StepRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const n = i + 1;
    if (line.length > MAX_LINE) throw new TraceError(file, n, `line is ${line.length} characters long (limit ${MAX_LINE})`);
    const value = parseJson(line, file, n);
    if (!header) {
      header = parseHeader(value, file, n);
      continue;
    }
    const expected = steps.length + 1;
    const result = StepRecord.safeParse(value);
    if (!result.success) throw new TraceError(file, n, `step ${expected}: ${describeIssue(result.error)}`);
    const step = result.data;
    if (step.step !== expected) {
      throw new TraceError(file, n, `expected step ${expected}, found step ${step.step} (steps are 1, 2, 3… in order; 1 = prefill)`);
    }
    if (step.codes.length !== header.q) {
      throw new TraceError(file, n, `step ${step.step}: "codes": expected ${header.q} codes (q in the header), found ${step.codes.length}`);
    }
    steps.push(step);
  }
  if (!header) throw new TraceError(file, 1, `empty trace (expected a header line {"schema":"${TRACE_SCHEMA}",...})`);
  if (steps.length === 0) throw new TraceError(file, lines.length, 'no steps after the header');
  return { header, steps };
}

function parseJson(line: string, file: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new TraceError(file, n, `not valid JSON (${why})`);
  }
}

function parseHeader(value: unknown, file: string, n: number): TraceHeader {
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema !== TRACE_SCHEMA) {
    const found = schema === undefined ? 'no "schema" field' : `schema ${JSON.stringify(schema)}`;
    throw new TraceError(file, n, `expected the header {"schema":"${TRACE_SCHEMA}",...} first, found ${found}`);
  }
  const result = TraceHeader.safeParse(value);
  if (!result.success) throw new TraceError(file, n, `header: ${describeIssue(result.error)}`);
  return result.data;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  return path ? `"${path}": ${issue.message}` : issue.message;
}
