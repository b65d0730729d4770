import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initFft } from '../../common/analysis/fft.js';
import {
  integratedFromSegments,
  loudnessRangeFromSegments,
  segmentEnergies,
} from '../../common/analysis/loudness.js';
import { frameSize, spectralDistances } from '../../common/analysis/spectral.js';
import { crossCorrelate } from '../../common/analysis/xcorr.js';
import { DEFAULT_MAX_LAG_MS } from '../../common/analysis/lag-range.js';
import { interleavedMedianTimes, medianTimes } from './median-times.js';

/**
 * Reference implementations run beside ours on the same signals in one bench run: loudness vs ffmpeg
 * `ebur128`, libebur128 (pyebur128) and pyloudnorm; cross-correlation lag vs scipy; LSD/MCD vs librosa.
 * The Python peers run in the project's .venv (scripts/analysis-peers.py; PARITY_PYTHON overrides the
 * interpreter) and are timed inside Python, so its start-up is not counted; ffmpeg is timed as a whole
 * process reading raw float32 (what the earlier bench did). Ratios are peer time / our time (> 1: ours
 * faster).
 */
export interface PeerBench {
  /** The interpreter the Python peers ran in; null when they did not run (`skipped` says why). */
  python: string | null;
  skipped?: string;
  loudness: {
    signal: string;
    ours: {
      integratedLufs: number;
      lraLu: number;
      integratedMs: number;
      integratedCpuMs: number;
      integratedAndLraMs: number;
      integratedAndLraCpuMs: number;
    };
    /** ms: wall time of the whole process; cpuMs: its user + system time (`-benchmark`). */
    ffmpeg: { integratedLufs: number; lraLu: number; ms: number; cpuMs: number } | null;
    libebur128: {
      integratedLufs: number;
      lraLu: number;
      integratedMs: number;
      integratedCpuMs: number;
      integratedAndLraMs: number;
      integratedAndLraCpuMs: number;
      version: string;
    } | null;
    pyloudnorm: { integratedLufs: number; integratedMs: number; integratedCpuMs: number } | null;
    /** Peer wall time / our wall time for the integrated loudness (ffmpeg: its whole run, I and LRA). */
    speedRatios: LoudnessRatios;
    /**
     * The same with CPU time (user + system; ours from process.cpuUsage, Python's process_time,
     * ffmpeg's -benchmark): far less moved by other work on a shared machine than wall time.
     */
    cpuRatios: LoudnessRatios;
  };
  xcorr: {
    signal: string;
    maxLag: number;
    ours: { lag: number; peak: number; ms: number; cpuMs: number };
    scipy: { lag: number; peak: number; ms: number; cpuMs: number } | null;
    speedRatio: number | null;
    cpuRatio: number | null;
  };
  spectral: {
    signal: string;
    ours: { atZero: Distances; aligned: Distances; ms: number; cpuMs: number };
    librosa: { atZero: Distances; aligned: Distances; ms: number; cpuMs: number; version: string } | null;
    speedRatio: number | null;
    cpuRatio: number | null;
  };
  errors?: Record<string, string>;
}

interface LoudnessRatios {
  ffmpeg: number | null;
  libebur128: number | null;
  libebur128WithLra: number | null;
  pyloudnorm: number | null;
}

interface Distances {
  lsdDb: number;
  mcdDb: number;
}

/** The package root: the nearest folder above this module with scripts/analysis-peers.py (source or dist). */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    if (existsSync(join(dir, 'scripts', 'analysis-peers.py'))) return dir;
  }
  return undefined;
}

/** The project's Python (PARITY_PYTHON, else .venv/bin/python at the package root) and the peer script. */
export function pythonPeers(): { python: string; script: string } | string {
  const root = packageRoot();
  if (root === undefined) return 'scripts/analysis-peers.py is not in this install';
  const script = join(root, 'scripts', 'analysis-peers.py');
  const python = process.env.PARITY_PYTHON ?? join(root, '.venv', 'bin', 'python');
  if (!existsSync(python))
    return `no Python environment at ${python} (build it with node scripts/python-env.js)`;
  return { python, script };
}

export async function benchPeers(
  signals: { long: Float32Array; a: Float32Array; b: Float32Array; sampleRate: number },
  runs: number,
): Promise<PeerBench> {
  const { long, a, b, sampleRate: rate } = signals;
  await initFft();
  const dir = mkdtempSync(join(tmpdir(), 'parity-peers-'));
  try {
    const write = (name: string, x: Float32Array) => {
      const file = join(dir, name);
      writeFileSync(file, new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
      return file;
    };
    const files = { long: write('long.f32', long), a: write('a.f32', a), b: write('b.f32', b) };

    // Ours.
    // Side by side: timed one after the other, the first measured was the slower (84 vs 58 ms idle).
    const [integrated, withRange] = await interleavedMedianTimes(runs, [
      () => integratedFromSegments(segmentEnergies([long], rate)),
      () => {
        const segments = segmentEnergies([long], rate);
        return [integratedFromSegments(segments), loudnessRangeFromSegments(segments)];
      },
    ]);
    const segments = segmentEnergies([long], rate);
    const common = Math.min(a.length, b.length);
    const maxLag = Math.min(Math.round((DEFAULT_MAX_LAG_MS * rate) / 1000), common - 1);
    const xc = crossCorrelate(a, b, common, maxLag);
    const xcTime = await medianTimes(runs, () => crossCorrelate(a, b, common, maxLag));
    const lag = xc.lag;
    const start = Math.max(0, -lag);
    const overlap = Math.min(a.length, b.length - lag) - start;
    const pairs = [
      { a: { signal: a, start: 0 }, b: { signal: b, start: 0 }, length: common },
      { a: { signal: a, start }, b: { signal: b, start: start + lag }, length: overlap },
    ];
    const [atZero, aligned] = spectralDistances(pairs, rate);
    const spectralTime = await medianTimes(runs, () => spectralDistances(pairs, rate));

    // Peers.
    const ffmpeg = ffmpegEbur128(files.long, rate, Math.min(runs, 3));
    const peers = pythonPeers();
    let py: Record<string, Record<string, unknown>> = {};
    const errors: Record<string, string> = {};
    if (typeof peers !== 'string') {
      const job = {
        runs,
        loudness: { signal: files.long, sampleRate: rate },
        xcorr: { a: files.a, b: files.b, maxLag },
        spectral: { a: files.a, b: files.b, sampleRate: rate, frameSize: frameSize(rate), lag },
      };
      const result = spawnSync(peers.python, [peers.script], {
        input: JSON.stringify(job),
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      if (result.status === 0) py = JSON.parse(result.stdout) as typeof py;
      else
        errors.python = `${peers.python} ${peers.script}: exit ${result.status}: ${result.stderr.slice(-500)}`;
      for (const [k, v] of Object.entries(py)) if (typeof v.error === 'string') errors[k] = v.error;
    }
    const ok = <T>(group: string, key: string): T | null => {
      const g = py[group];
      return g && typeof g.error !== 'string' && g[key] ? (g[key] as T) : null;
    };
    const eb = ok<PeerBench['loudness']['libebur128']>('loudness', 'libebur128');
    const pln = ok<PeerBench['loudness']['pyloudnorm']>('loudness', 'pyloudnorm');
    const scipy = ok<PeerBench['xcorr']['scipy']>('xcorr', 'scipy');
    const librosa = ok<PeerBench['spectral']['librosa']>('spectral', 'librosa');
    const over = (peer: number | undefined | null, ours: number) => (peer == null ? null : peer / ours);
    const seconds = (x: Float32Array) => `${Math.round(x.length / rate)} s`;
    return {
      python: typeof peers === 'string' ? null : peers.python,
      ...(typeof peers === 'string' ? { skipped: peers } : {}),
      loudness: {
        signal: `${seconds(long)} mono ${rate / 1000} kHz speech-like (bench-signals.ts, seed 2)`,
        ours: {
          integratedLufs: integratedFromSegments(segments),
          lraLu: loudnessRangeFromSegments(segments),
          integratedMs: integrated.wallMs,
          integratedCpuMs: integrated.cpuMs,
          integratedAndLraMs: withRange.wallMs,
          integratedAndLraCpuMs: withRange.cpuMs,
        },
        ffmpeg,
        libebur128: eb,
        pyloudnorm: pln,
        speedRatios: {
          ffmpeg: over(ffmpeg?.ms, integrated.wallMs),
          libebur128: over(eb?.integratedMs, integrated.wallMs),
          libebur128WithLra: over(eb?.integratedAndLraMs, withRange.wallMs),
          pyloudnorm: over(pln?.integratedMs, integrated.wallMs),
        },
        cpuRatios: {
          ffmpeg: over(ffmpeg?.cpuMs, integrated.cpuMs),
          libebur128: over(eb?.integratedCpuMs, integrated.cpuMs),
          libebur128WithLra: over(eb?.integratedAndLraCpuMs, withRange.cpuMs),
          pyloudnorm: over(pln?.integratedCpuMs, integrated.cpuMs),
        },
      },
      xcorr: {
        signal: `two ${seconds(a)} ${rate / 1000} kHz signals, B = 0.8·A delayed 37 samples + noise`,
        maxLag,
        ours: { lag: xc.lag, peak: xc.peak, ms: xcTime.wallMs, cpuMs: xcTime.cpuMs },
        scipy,
        speedRatio: over(scipy?.ms, xcTime.wallMs),
        cpuRatio: over(scipy?.cpuMs, xcTime.cpuMs),
      },
      spectral: {
        signal: 'the same pair, at lag 0 and aligned (two pairs, as compareSignals measures them)',
        ours: { atZero, aligned, ms: spectralTime.wallMs, cpuMs: spectralTime.cpuMs },
        librosa,
        speedRatio: over(librosa?.ms, spectralTime.wallMs),
        cpuRatio: over(librosa?.cpuMs, spectralTime.cpuMs),
      },
      ...(Object.keys(errors).length ? { errors } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** ffmpeg's ebur128 on raw float32 mono: its I and LRA (from the summary) and its median wall time. */
function ffmpegEbur128(file: string, rate: number, runs: number): PeerBench['loudness']['ffmpeg'] {
  if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0) return null;
  const args = [
    '-nostats',
    '-hide_banner',
    '-benchmark',
    '-f',
    'f32le',
    '-ar',
    String(rate),
    '-ac',
    '1',
    '-i',
    file,
    '-af',
    'ebur128',
    '-f',
    'null',
    '-',
  ];
  const once = () => spawnSync('ffmpeg', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const first = once();
  if (first.status !== 0) throw new Error(`ffmpeg -af ebur128 failed with status ${first.status}`);
  const summary = first.stderr.slice(first.stderr.lastIndexOf('Summary:'));
  const value = (label: string) => Number(new RegExp(`${label}:\\s+(-?[\\d.]+)`).exec(summary)?.[1] ?? NaN);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const run = once();
    times.push(performance.now() - start);
    // -benchmark: "bench: utime=0.123s stime=0.012s rtime=0.140s"
    const bench = /utime=([\d.]+)s stime=([\d.]+)s/.exec(run.stderr);
    cpu.push(bench ? (Number(bench[1]) + Number(bench[2])) * 1000 : NaN);
  }
  const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  return { integratedLufs: value('I'), lraLu: value('LRA'), ms: mid(times), cpuMs: mid(cpu) };
}
