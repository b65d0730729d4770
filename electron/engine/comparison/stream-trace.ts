import { refuseWav, TraceLineReader, type ReadTraceOptions } from '../../common/trace/read-trace.js';
import type { TraceHeader } from '../../common/trace/trace-format.js';
import type { TraceStep } from '../../common/trace/step-record.js';
import { openChecked } from '../fs/read-checked.js';
import { TRACE_FILE } from './read-inputs.js';

const CHUNK = 1 << 20;

/**
 * A trace file's lines, read 1 MiB at a time and decoded as readTraceFile decodes the whole file (UTF-8,
 * bytes that are not UTF-8 as U+FFFD), so a trace of any length is read in constant memory. The file is
 * checked as readTraceFile checks it (a regular file within the trace size limit; a WAV is refused).
 * Lines are split at "\n" (a "\r" before it is trimmed with the line's other whitespace), as readTrace splits.
 */
export async function* traceLines(file: string, options: ReadTraceOptions = {}): AsyncGenerator<string> {
  const { handle, size } = await openChecked(file, { limit: TRACE_FILE });
  try {
    const decoder = new TextDecoder('utf-8');
    const buffer = new Uint8Array(Math.min(CHUNK, Math.max(size, 1)));
    let carry = '';
    let first = true;
    for (let at = 0; ; ) {
      const { bytesRead } = at < size ? await handle.read(buffer, 0, Math.min(buffer.length, size - at), at) : { bytesRead: 0 };
      at += bytesRead;
      const text = carry + decoder.decode(buffer.subarray(0, bytesRead), { stream: bytesRead > 0 });
      if (first) refuseWav(text, file, options);
      first = false;
      const lines = text.split('\n');
      carry = lines.pop()!;
      yield* lines;
      if (bytesRead === 0) break;
    }
    yield carry;
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
