import { BoundedLines, MAX_JSON_LINE } from '../../common/text/bounded-lines.js';
import { refuseWav, traceLineTooLong, TraceLineReader, type ReadTraceOptions } from '../../common/trace/read-trace.js';
import type { Trace, TraceHeader } from '../../common/trace/trace-format.js';
import type { TraceStep } from '../../common/trace/step-record.js';
import { openChecked } from '../fs/read-checked.js';
import { TRACE_FILE } from './read-inputs.js';

const CHUNK = 1 << 20;

/**
 * A trace file's lines, read 1 MiB at a time and decoded as readTraceFile decodes the whole file (UTF-8,
 * bytes that are not UTF-8 as U+FFFD), so a trace of any length is read in constant memory. The file is
 * checked as readTraceFile checks it (a regular file within the trace size limit; a WAV is refused).
 * Lines are split at "\n" (a "\r" before it is trimmed with the line's other whitespace), as readTrace splits,
 * and one past MAX_JSON_LINE is refused before it is held (BoundedLines): memory is a chunk plus that limit.
 */
export async function* traceLines(file: string, options: ReadTraceOptions = {}): AsyncGenerator<string> {
  const { handle, size } = await openChecked(file, { limit: TRACE_FILE });
  try {
    const decoder = new TextDecoder('utf-8');
    const buffer = new Uint8Array(Math.min(CHUNK, Math.max(size, 1)));
    const lines = new BoundedLines(MAX_JSON_LINE, traceLineTooLong(file));
    let first = true;
    for (let at = 0; ; ) {
      const { bytesRead } = at < size ? await handle.read(buffer, 0, Math.min(buffer.length, size - at), at) : { bytesRead: 0 };
      at += bytesRead;
      const text = decoder.decode(buffer.subarray(0, bytesRead), { stream: bytesRead > 0 });
      if (first) refuseWav(text, file, options);
      first = false;
      yield* lines.push(text);
      if (bytesRead === 0) break;
    }
    yield lines.end();
  } finally {
    await handle.close();
  }
}

/** A trace read line by line: its header first, then each step; the same refusals as readTrace, at the same line. */
export async function* traceRecords(file: string, options: ReadTraceOptions = {}): AsyncGenerator<TraceHeader | TraceStep> {
  const reader = new TraceLineReader(file);
  let n = 0;
  for await (const line of traceLines(file, options)) {
    n++;
    const header = reader.header;
    const step = reader.line(line, n);
    if (!header && reader.header) yield reader.header;
    if (step) yield step;
  }
  reader.end(n);
}

/**
 * A trace file with its steps (`options.wavHint` says how the caller takes WAVs, for a WAV given as a
 * trace), read as traceRecords reads it: the file is never held whole, and a line past the limit never.
 */
export async function readTraceFile(path: string, options: ReadTraceOptions = {}): Promise<Trace> {
  let header: TraceHeader | undefined;
  const steps: TraceStep[] = [];
  for await (const record of traceRecords(path, options)) {
    if ('schema' in record) header = record;
    else steps.push(record);
  }
  return { header: header!, steps };
}

/** A trace's header and step count, every line checked, without holding its steps. */
export async function scanTrace(file: string, options: ReadTraceOptions = {}): Promise<{ file: string; header: TraceHeader; steps: number }> {
  let header: TraceHeader | undefined;
  let steps = 0;
  for await (const record of traceRecords(file, options)) {
    if ('schema' in record) header = record;
    else steps++;
  }
  return { file, header: header!, steps };
}

/** The steps of a trace already checked by scanTrace, read again one at a time. */
export async function* traceSteps(file: string): AsyncGenerator<TraceStep> {
  for await (const record of traceRecords(file)) if (!('schema' in record)) yield record;
}
