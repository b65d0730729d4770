import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../common/errors.js';
import type { AudioSource } from '../../common/report/report.js';
import { readTrace } from '../../common/trace/read-trace.js';
import type { Trace } from '../../common/trace/trace-format.js';
import { decodeWav } from '../../common/wav/decode-wav.js';
import { downmixToMono } from '../../common/wav/downmix.js';

/** Node cannot hold a larger file in one buffer. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

export async function readFileChecked(path: string): Promise<Uint8Array> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path}: not a file`, path);
    if (info.size > MAX_FILE_BYTES) throw new InputError(`${path}: ${info.size} bytes, larger than the 2 GiB that can be read`, path);
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${path}: cannot read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`, path);
  }
}

export async function readTraceFile(path: string): Promise<Trace> {
  const bytes = await readFileChecked(path);
  return readTrace(new TextDecoder('utf-8').decode(bytes), path);
}

/** A WAV as one mono signal and the record of how it was read (downmix rule, format). */
export async function readWavFile(path: string): Promise<{ signal: Float32Array; source: AudioSource }> {
  const decoded = decodeWav(await readFileChecked(path), path);
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
