import type { Audio } from '../../common/api/index.js';
import type { ParityReport } from '../../common/report/report.js';
import { compareWavs } from '../../common/wav/compare-wavs.js';
import type { WavSource } from '../kept-import.js';
import { decodeSource } from './decode-source.js';
import { processSpectralRunner } from '../spectral/process-spectral-thread.js';

export interface CompareWavBytesTask {
  kind: 'compare-wavs';
  a: WavSource;
  b: WavSource;
  maxLagMs: number;
  createdAt: string;
}

export interface WavPairResult {
  report: ParityReport;
  a: Audio;
  b: Audio;
}

/** Decodes and compares two WAV files given as bytes or as files on disk, read here (not by the host). */
export async function compareWavBytes(task: CompareWavBytesTask): Promise<WavPairResult> {
  const a = { path: task.a.name, decoded: await decodeSource(task.a) };
  const b = { path: task.b.name, decoded: await decodeSource(task.b) };
  const result = await compareWavs(a, b, { maxLagMs: task.maxLagMs, createdAt: task.createdAt, spectral: processSpectralRunner() });
  const sampleRate = a.decoded.sampleRate;
  return { report: result.report, a: { sampleRate, samples: result.a }, b: { sampleRate, samples: result.b } };
}
