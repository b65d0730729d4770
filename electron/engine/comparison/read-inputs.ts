import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { AudioSource } from '../../common/report/report.js';
import { readTrace, type ReadTraceOptions } from '../../common/trace/read-trace.js';
import type { Trace } from '../../common/trace/trace-format.js';
import type { WavInput } from '../../common/wav/compare-wavs.js';
import { decodeWav } from '../../common/wav/decode-wav.js';
import { downmixToMono } from '../../common/wav/downmix.js';

/** How large a file may be read whole, and the words for a larger one ("… bytes, larger than <words>"). */
interface SizeLimit {
  bytes: number;
  words: string;
}

/** Node cannot hold a larger file in one buffer. */
const ANY_FILE: SizeLimit = { bytes: 2 ** 31 - 1, words: 'the 2 GiB that can be read' };

/**
 * Largest trace read: V8 strings stop at ~512 M characters (a bigger file failed with "Cannot create a
 * string longer than …"), and at ~2 kB a step this is over 100,000 steps (2 hours at 12.5 frames/s).
 */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;
const TRACE_FILE: SizeLimit = {
  bytes: MAX_TRACE_BYTES,
  words: `the ${MAX_TRACE_BYTES / 2 ** 20} MiB a trace may have (about 100,000 steps); split the run or trace fewer steps`,
};

/**
 * The one check before a file is read whole, from its stat (links followed): anything but a regular file
 * (a folder, a FIFO that would block forever, a link to /dev/zero that would grow until memory runs out)
 * and a file past the limit are refused in one line, before any byte is read. `context` ends the
 * not-a-file line (what the caller expected there).
 */
function checkReadable(path: string, info: Stats, limit: SizeLimit, context = ''): void {
  if (!info.isFile())
    throw new InputError(
      `${path}: not a regular file (${info.isDirectory() ? 'a folder' : 'a device, FIFO or socket'})${context}`,
      path,
    );
  if (info.size > limit.bytes)
    throw new InputError(`${path}: ${info.size} bytes, larger than ${limit.words}`, path);
}

const cannotRead = (path: string, error: unknown): InputError =>
  error instanceof InputError ? error : new InputError(`${path}: cannot read (${fsReason(error)})`, path);

/** A whole input file (WAV, trace, JSON), or one InputError line naming it and why it cannot be read. */
export async function readFileChecked(path: string, limit: SizeLimit = ANY_FILE): Promise<Uint8Array> {
  try {
    checkReadable(path, await stat(path), limit);
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** A file of a fixture folder, or undefined when nothing is there; otherwise checked as readFileChecked. */
export function readFixtureFileSync(path: string): Uint8Array | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
    checkReadable(path, info, ANY_FILE, '; a fixture folder holds only files');
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** A trace file; `options.wavHint` says how the caller takes WAVs, for a WAV given as a trace. */
export async function readTraceFile(path: string, options: ReadTraceOptions = {}): Promise<Trace> {
  const bytes = await readFileChecked(path, TRACE_FILE);
  return readTrace(new TextDecoder('utf-8').decode(bytes), path, options);
}

/** A WAV file decoded as it is (channels, format, warnings), for `compareWavs`. */
export async function readWavInput(path: string): Promise<WavInput> {
  return { path, decoded: decodeWav(await readFileChecked(path), path) };
}

/** A WAV as one mono signal and the record of how it was read (downmix rule, format). */
export async function readWavFile(path: string): Promise<{ signal: Float32Array; source: AudioSource }> {
  const { decoded } = await readWavInput(path);
  const mono = downmixToMono(decoded);
  const source: AudioSource = {
    path,
    sampleRate: decoded.sampleRate,
    channels: decoded.channels.length,
    format: decoded.format,
    downmix: mono.rule,
  };
  if (decoded.warnings.length) source.warnings = decoded.warnings;
  return { signal: mono.signal, source };
}

/** SOURCE_DATE_EPOCH (seconds) pins createdAt so the same inputs give the same report bytes. */
export function reportTime(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString();
  return new Date().toISOString();
}
