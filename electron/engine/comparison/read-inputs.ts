import { statSync } from 'node:fs';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { AudioSource } from '../../common/report/report.js';
import type { WavInput } from '../../common/wav/compare-wavs.js';
import { ANY_FILE, readChecked, readCheckedPieces, readCheckedSync, type SizeLimit } from '../fs/read-checked.js';
import { downmixToMono } from '../../common/wav/downmix.js';
import { decodeWavFile } from '../fs/decode-wav-file.js';

/**
 * Largest trace read: V8 strings stop at ~512 M characters (a bigger file failed with "Cannot create a
 * string longer than …"), and at ~2 kB a step this is over 100,000 steps (2 hours at 12.5 frames/s).
 */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;
export const TRACE_FILE: SizeLimit = {
  bytes: MAX_TRACE_BYTES,
  words: `the ${MAX_TRACE_BYTES / 2 ** 20} MiB a trace may have (about 100,000 steps); split the run or trace fewer steps`,
};

const FIXTURE_FILES_ONLY = '; a fixture folder holds only files';

/** A whole input file (WAV, trace, JSON), or one InputError line naming it and why it cannot be read (read-checked.ts). */
export async function readFileChecked(path: string, limit: SizeLimit = ANY_FILE): Promise<Uint8Array> {
  return readChecked(path, { limit });
}

/** A file of a fixture folder, or undefined when nothing is there (a dangling link included); otherwise checked as readFileChecked. */
export function readFixtureFileSync(path: string, limit: SizeLimit = ANY_FILE): Uint8Array | undefined {
  let found: boolean;
  try {
    found = statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
  return found ? readCheckedSync(path, { limit, context: FIXTURE_FILES_ONLY }) : undefined;
}

/**
 * A fixture file's pieces (readCheckedPieces) for one too large to hold, checked as readFixtureFileSync
 * checks it; undefined when nothing is there.
 */
export function readFixtureFilePieces(path: string): AsyncGenerator<Uint8Array> | undefined {
  let found: boolean;
  try {
    found = statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    throw new InputError(`${path}: cannot read (${fsReason(error)})`, path);
  }
  return found ? readCheckedPieces(path, { context: FIXTURE_FILES_ONLY }) : undefined;
}

/** A WAV file decoded as it is (channels, format, warnings), for `compareWavs`; read a block at a time, never held whole. */
export async function readWavInput(path: string): Promise<WavInput> {
  return { path, decoded: decodeWavFile(path) };
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
