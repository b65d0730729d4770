import type { z } from 'zod';
import { ParityError } from '../errors.js';
import { boundedLinesOf, MAX_JSON_LINE } from '../text/bounded-lines.js';
import { TraceStep } from './step-record.js';
import { TraceError } from './trace-error.js';
import { TRACE_SCHEMA, TraceHeader, type Trace } from './trace-format.js';

/** The refusal of a step with nothing to compare (the generated step schema carries it for other writers). */
export const NO_STEP_DATA = 'no "logits" statistic, "codes" or "codePredictorLogits" (a step needs at least one; docs/trace-format.md)';

/** The refusal of a trace line past MAX_JSON_LINE, for BoundedLines (it comes before the line is read whole). */
export const traceLineTooLong = (file: string) => (n: number, limit: number) =>
  new TraceError(file, n, `line is longer than ${limit} characters (the limit of a trace line; docs/trace-format.md)`);

/** A RIFF/RF64 WAVE header as text: the 4 size bytes decode to 1–4 characters (ASCII or U+FFFD). */
const WAV_HEADER = /^(?:RIFF|RIFX|RF64)[\s\S]{1,4}WAVE/;

/** Characters JSON never holds raw (C0 controls other than its whitespace): a line with one is binary. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/g;

/** `text` safe for a one-line message: controls and U+FFFD (bytes that were not UTF-8) as \uXXXX escapes. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface ReadTraceOptions {
  /** Appended in parentheses when the file is a WAV: how this caller takes WAVs (e.g. `give WAVs with --wav-a/--wav-b`). */
  wavHint?: string;
}

/** The WAV refusal, when `start` (a trace file's first characters) is a RIFF/RF64 WAVE header. */
export function refuseWav(start: string, file: string, options: ReadTraceOptions = {}): void {
  if (!WAV_HEADER.test(start)) return;
  const hint = options.wavHint ? ` (${options.wavHint})` : '';
  throw new ParityError('trace', `${file} is a WAV file, not a ${TRACE_SCHEMA} trace${hint}`, file);
}

/**
 * Parses a `tts-parity-trace/1` file. Blank lines are skipped; everything else must be valid, and the
 * first problem is reported with its 1-based line number: `t.jsonl:7: step 6: "codes": expected 8 codes (q), found 7`.
 * A WAV given as a trace is named as such, and binary content is refused without echoing its bytes.
 */
export function readTrace(text: string, file: string, options: ReadTraceOptions = {}): Trace {
  refuseWav(text, file, options);
  const reader = new TraceLineReader(file);
  const steps: TraceStep[] = [];
  let n = 0;
  for (const line of boundedLinesOf(text, MAX_JSON_LINE, traceLineTooLong(file))) {
    const step = reader.line(line, ++n);
    if (step) steps.push(step);
  }
  return { header: reader.end(n), steps };
}

/**
 * readTrace one line at a time (a trace streamed from disk reads the same; lines come bounded to
 * MAX_JSON_LINE by BoundedLines): `line` returns the step a
 * line holds (null for a blank line or the header) or throws the line's first problem; `end` checks the
 * whole and returns the header. `steps` counts the steps read so far.
 */
export class TraceLineReader {
  header: TraceHeader | undefined;
  steps = 0;

  constructor(private readonly file: string) {}

  line(text: string, n: number): TraceStep | null {
    const { file } = this;
    const line = text.trim();
    if (line === '') return null;
    const control = CONTROL.exec(line);
    if (control) {
      const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      throw new TraceError(file, n, `not a text file: control character U+${code} at column ${control.index + 1} (a ${TRACE_SCHEMA} trace is UTF-8 JSON Lines, docs/trace-format.md)`);
    }
    const value = parseJson(line, file, n);
    const header = this.header;
    if (!header) {
      this.header = parseHeader(value, file, n);
      return null;
    }
    const expected = this.steps + 1;
    // Numbering is checked before the schema, so step 0 reads "expected step 1, found step 0", not a
    // schema message about step 1 being too small.
    const numbered = (value as { step?: unknown } | null)?.step;
    if (typeof numbered === 'number' && numbered !== expected) {
      throw new TraceError(file, n, `expected step ${expected}, found step ${numbered} (steps are 1, 2, 3… in order; 1 = prefill)`);
    }
    const result = TraceStep.safeParse(value);
    if (!result.success) throw new TraceError(file, n, `step ${expected}: ${describeIssue(result.error)}`);
    const step = result.data;
    if (step.step !== expected) {
      throw new TraceError(file, n, `expected step ${expected}, found step ${step.step} (steps are 1, 2, 3… in order; 1 = prefill)`);
    }
    if (!hasData(step)) {
      throw new TraceError(file, n, `step ${step.step}: ${NO_STEP_DATA}`);
    }
    if (step.codes && step.codes.length !== header.q) {
      throw new TraceError(file, n, `step ${step.step}: "codes": expected ${header.q} codes (q in the header), found ${step.codes.length}`);
    }
    const outside = step.codes ? codeOutsideCodebook(step.codes, header.codebookSize) : null;
    if (outside) throw new TraceError(file, n, `step ${step.step}: ${outside}`);
    const cp = step.codePredictorLogits;
    if (cp && cp.length !== header.q - 1) {
      throw new TraceError(file, n, `step ${step.step}: "codePredictorLogits": expected ${header.q - 1} entries (q−1), found ${cp.length}`);
    }
    this.steps++;
    return step;
  }

  /** After the last of `lines` lines: the header, or the refusal of an empty or step-less trace. */
  end(lines: number): TraceHeader {
    if (!this.header) throw new TraceError(this.file, 1, `empty trace (expected a header line {"schema":"${TRACE_SCHEMA}",...})`);
    if (this.steps === 0) throw new TraceError(this.file, lines, 'no steps after the header');
    return this.header;
  }
}

/** At least one logit statistic (talker or code predictor) or the codes. */
function hasData(step: TraceStep): boolean {
  const some = (stats: object | undefined) => stats !== undefined && Object.keys(stats).length > 0;
  return some(step.logits) || step.codes !== undefined || (step.codePredictorLogits ?? []).some(some);
}

/** The first code at or above its codebook's size (header `codebookSize`), in words; null when none or no size. */
function codeOutsideCodebook(codes: readonly number[], size: TraceHeader['codebookSize']): string | null {
  if (size === undefined) return null;
  for (let c = 0; c < codes.length; c++) {
    const limit = typeof size === 'number' ? size : size[c];
    if (codes[c] >= limit) return `"codes.${c}": ${codes[c]} is outside codebook ${c} (codebookSize ${limit} in the header: codes 0…${limit - 1})`;
  }
  return null;
}

/** A NaN or Infinity written as a bare literal where a JSON value belongs (Python's json.dumps does this). */
const BARE_NON_FINITE = /[:[,]\s*(-?Infinity|NaN)\s*[,\]}]/;

function parseJson(line: string, file: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const literal = BARE_NON_FINITE.exec(line)?.[1];
    const hint = literal ? `; JSON has no ${literal}: write it as the string "${literal}"` : '';
    throw new TraceError(file, n, `not valid JSON (${printable(why)})${hint}`);
  }
}

function parseHeader(value: unknown, file: string, n: number): TraceHeader {
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema !== TRACE_SCHEMA) {
    const found = schema === undefined ? 'no "schema" field' : `schema ${printable(JSON.stringify(schema))}`;
    throw new TraceError(file, n, `expected the header {"schema":"${TRACE_SCHEMA}",...} first, found ${found}`);
  }
  const result = TraceHeader.safeParse(value);
  if (!result.success) throw new TraceError(file, n, `header: ${describeIssue(result.error)}`);
  const size = result.data.codebookSize;
  if (Array.isArray(size) && size.length !== result.data.q) {
    throw new TraceError(file, n, `header: "codebookSize": expected one size or q = ${result.data.q} sizes, found ${size.length}`);
  }
  const delays = result.data.codebookDelays;
  if (delays && delays.length !== result.data.q) {
    throw new TraceError(file, n, `header: "codebookDelays": expected q = ${result.data.q} delays (one per codebook), found ${delays.length}`);
  }
  const gap = chunkGap(result.data.vocoderChunks);
  if (gap) throw new TraceError(file, n, `header: "vocoderChunks": ${gap}`);
  return result.data;
}

/** Where a chunk does not start at the sample the one before ends at, in words; null when they follow on. */
function chunkGap(chunks: TraceHeader['vocoderChunks']): string | null {
  let next = 0;
  for (const [k, chunk] of (chunks ?? []).entries()) {
    if (chunk.startSample !== next) return `chunk ${k + 1} starts at sample ${chunk.startSample}, expected ${next} (where ${k === 0 ? 'the audio starts' : `chunk ${k} ends`})`;
    next = chunk.startSample + chunk.samples;
  }
  return null;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  return path ? `"${path}": ${issue.message}` : issue.message;
}
