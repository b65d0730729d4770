import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { AudioSource } from '../../common/report/report.js';
import { readTrace, type ReadTraceOptions } from '../../common/trace/read-trace.js';
import type { Trace } from '../../common/trace/trace-format.js';
import type { WavInput } from '../../common/wav/compare-wavs.js';
import { decodeWav } from '../../common/wav/decode-wav.js';
import { downmixToMono } from '../../common/wav/downmix.js';

/** Node cannot hold a larger file in one buffer. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

/** A whole input file (WAV or trace), or one InputError line naming it and why it cannot be read. */
export async function readFileChecked(path: string): Promise<Uint8Array> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path}: not a file`, path);
    if (info.size > MAX_FILE_BYTES) throw new InputError(`${path}: ${info.size} bytes, larger than the 2 GiB that can be read`, path);
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
}

/**
 * A file of a fixture folder, or undefined when nothing is there. Anything but a regular file (a folder,
 * a FIFO that would block forever, a link to /dev/zero that would grow until memory runs out) and a
 * file past 2 GiB are refused in one line, before any byte is read.
 */
export function readFixtureFileSync(path: string): Uint8Array | undefined {
  let info;
  try {
    info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
  } catch (error) {
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
  if (!info.isFile()) throw new InputError(`${path}: not a regular file (${info.isDirectory() ? 'a folder' : 'a device, FIFO or socket'}); a fixture folder holds only files`, path);
  if (info.size > MAX_FILE_BYTES) throw new InputError(`${path}: ${info.size} bytes, larger than the 2 GiB that can be read`, path);
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
}

/**
 * Largest trace read: V8 strings stop at ~512 M characters (a bigger file failed with "Cannot create a
 * string longer than …"), and at ~2 kB a step this is over 100,000 steps (2 hours at 12.5 frames/s).
 */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;

/** A trace file; `options.wavHint` says how the caller takes WAVs, for a WAV given as a trace. */
export async function readTraceFile(path: string, options: ReadTraceOptions = {}): Promise<Trace> {
  const size = await stat(path).then((info) => info.size, () => 0);
  if (size > MAX_TRACE_BYTES) {
    throw new InputError(`${path}: ${size} bytes, larger than the ${MAX_TRACE_BYTES / 2 ** 20} MiB a trace may have (about 100,000 steps); split the run or trace fewer steps`, path);
  }
  const bytes = await readFileChecked(path);
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
  const source: AudioSource = { path, sampleRate: decoded.sampleRate, channels: decoded.channels.length, format: decoded.format, downmix: mono.rule };
  if (decoded.warnings.length) source.warnings = decoded.warnings;
  return { signal: mono.signal, source };
}

/** SOURCE_DATE_EPOCH (seconds) pins createdAt so the same inputs give the same report bytes. */
export function reportTime(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString();
  return new Date().toISOString();
}
