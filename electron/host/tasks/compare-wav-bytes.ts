import type { Audio, FileBytes } from '../../common/api/index.js';
import type { ParityReport } from '../../common/report/report.js';
import { compareWavs } from '../../common/wav/compare-wavs.js';
import { decodeWav } from '../../common/wav/decode-wav.js';

export interface CompareWavBytesTask {
  kind: 'compare-wavs';
  a: FileBytes;
  b: FileBytes;
  maxLagMs: number;
  createdAt: string;
}

export interface WavPairResult {
  report: ParityReport;
  a: Audio;
  b: Audio;
}

/** Decodes and compares two WAV files given as bytes (the host read any paths before). */
export async function compareWavBytes(task: CompareWavBytesTask): Promise<WavPairResult> {
  const a = { path: task.a.name, decoded: decodeWav(task.a.bytes, task.a.name) };
  const b = { path: task.b.name, decoded: decodeWav(task.b.bytes, task.b.name) };
  const result = await compareWavs(a, b, { maxLagMs: task.maxLagMs, createdAt: task.createdAt });
  const sampleRate = a.decoded.sampleRate;
  return { report: result.report, a: { sampleRate, samples: result.a }, b: { sampleRate, samples: result.b } };
}
