import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareSignals } from '../../common/analysis/compare.js';
import { measureLoudness } from '../../common/analysis/loudness.js';
import { SpectralThread } from '../../host/spectral/spectral-thread.js';
import type { AnalysisBench } from './bench-results.js';
import { degradedCopy, speechLikeSignal } from './bench-signals.js';
import { interleavedMedianTimes, medianTimes } from './median-times.js';
import { benchPeers } from './peer-bench.js';

const RATE = 24000;

export interface AnalysisBenchOptions {
  /** Timed runs per measurement, after one warm-up run (default 5; ffmpeg gets min(runs, 3)). */
  runs?: number;
  /** Called before each measurement, for progress on stderr. */
  onStep?: (what: string) => void;
}

/**
 * The 60 s pair is timed at least this often (~5 s): on this 2-core machine its median over 5 runs read
 * 122 and 145 ms in two bench runs a minute apart, over 15 runs 123 and 125.
 */
const PAIR_MIN_RUNS = 15;

export async function benchAnalysis(options: AnalysisBenchOptions = {}): Promise<AnalysisBench> {
  const runs = Math.max(1, options.runs ?? 5);
  const step = options.onStep ?? (() => {});

  step('compareSignals, two 60 s 24 kHz signals');
  const a = speechLikeSignal(60, RATE, 1);
  const b = degradedCopy(a, 37, 0.8, 1e-4);
  const spectral = new SpectralThread();
  const pairRuns = Math.max(runs, PAIR_MIN_RUNS);
  const [pair, singleThread] = await interleavedMedianTimes(pairRuns, [
    () => compareSignals(a, b, RATE, { spectral: spectral.run }),
    () => compareSignals(a, b, RATE),
  ]).finally(() => spectral.close());

  step('loudness, 10 min 24 kHz');
  const long = speechLikeSignal(600, RATE, 2);
  const loudness = await medianTimes(runs, () => measureLoudness([long], RATE));

  step('ffmpeg ebur128, the same 10 min');
  const ffmpegEbur128600sMs = await benchFfmpeg(long, Math.min(runs, 3));

  step('peers on the same signals: ffmpeg ebur128, libebur128, pyloudnorm, scipy, librosa');
  const peers = await benchPeers({ long, a, b, sampleRate: RATE }, runs);
  return {
    pair60sMs: pair.wallMs,
    pair60sCpuMs: pair.cpuMs,
    pair60sSingleThreadMs: singleThread.wallMs,
    pair60sSingleThreadCpuMs: singleThread.cpuMs,
    pair60sWorkerSpeedup: singleThread.wallMs / pair.wallMs,
    pair60sRuns: pairRuns,
    loudness600sMs: loudness.wallMs,
    loudness600sCpuMs: loudness.cpuMs,
    ffmpegEbur128600sMs,
    peers,
    runs,
  };
}

/**
 * ffmpeg reads the signal as raw float32 (`-f f32le`), so its time is the filter's and not a WAV
 * decoder's; null when ffmpeg is not on PATH.
 */
async function benchFfmpeg(signal: Float32Array, runs: number): Promise<number | null> {
  if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'parity-bench-'));
  try {
    const file = join(dir, 'signal.f32');
    writeFileSync(file, new Uint8Array(signal.buffer, signal.byteOffset, signal.byteLength));
    const args = ['-nostats', '-hide_banner', '-f', 'f32le', '-ar', String(RATE), '-ac', '1', '-i', file];
    const runOnce = () => {
      const result = spawnSync('ffmpeg', [...args, '-af', 'ebur128', '-f', 'null', '-'], { stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`ffmpeg -af ebur128 failed with status ${result.status}`);
    };
    return (await medianTimes(runs, runOnce)).wallMs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
