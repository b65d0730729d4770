import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav, type WavWriteFormat } from '../../common/wav/encode-wav.js';

const MB = 2 ** 20;
const RATE = 24_000;

/** One import to measure: two files of about `fileMb` MB each, in `format`. */
export interface WavImportCase {
  fileMb: number;
  format: WavWriteFormat;
}

export interface WavImportMemoryPoint {
  fileMb: number;
  format: WavWriteFormat;
  filesMb: number;
  /** VmHWM after the import minus VmRSS before it, MB. */
  growthMb: number;
  /** growthMb over the two files' bytes. Target ≤ 2 (the float32 takes alone are 2× a pcm16 pair, 1× a float32 one). */
  growthOverFiles: number;
  seconds: number;
  /** The report's loudness difference B − A: 20·log10(0.9) = −0.92 LU for the generated pair (B = 0.9·A). */
  loudnessDeltaLU: number;
}

/** A mono 24 kHz WAV of about `megabytes` MB in `format` (a modulated 150 Hz tone); returns its bytes. */
export function writeBenchWav(path: string, megabytes: number, gain: number, format: WavWriteFormat): number {
  const n = Math.floor((megabytes * MB) / (format === 'pcm16' ? 2 : 4));
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = gain * Math.sin((2 * Math.PI * 150 * i) / RATE) * (0.5 + 0.5 * Math.sin(i / 7000));
  writeFileSync(path, encodeWav([x], RATE, format));
  return statSync(path).size;
}

// Run in the child: the module loaded first, so only the import's own memory is measured. A file, not
// `--input-type=module -e`: the spectral worker thread inherits execArgv and refuses that flag.
const child = `
import { readFileSync, writeSync } from 'node:fs';
const { compareWavBytes } = await import(process.argv[2]);
const kb = (field) => Number(new RegExp(field + ':\\\\s+(\\\\d+) kB').exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const before = kb('VmRSS');
const started = performance.now();
const result = await compareWavBytes({ kind: 'compare-wavs', a: { name: 'a.wav', path: process.argv[3] }, b: { name: 'b.wav', path: process.argv[4] }, maxLagMs: 50, createdAt: '2026-01-01T00:00:00.000Z' });
writeSync(1, JSON.stringify({ beforeKb: before, peakKb: kb('VmHWM'), seconds: (performance.now() - started) / 1000, loudnessDeltaLU: result.report.metrics.loudnessDeltaLU }));
`;

/** The built worker step, next to this file in dist/ (a script run from source passes dist's copy). */
export const compareWavBytesModule = new URL('../../host/tasks/compare-wav-bytes.js', import.meta.url).href;

/**
 * Peak memory of a WAV-pair import as the engine worker runs it (compareWavBytes: both files read by
 * path, decoded, compared), one fresh process per case. Null off Linux (reads /proc).
 */
export function benchWavImportMemory(cases: WavImportCase[], module = compareWavBytesModule): WavImportMemoryPoint[] | null {
  if (process.platform !== 'linux') return null;
  const dir = mkdtempSync(join(tmpdir(), 'bench-wav-import-'));
  try {
    const script = join(dir, 'import-child.mjs');
    writeFileSync(script, child);
    return cases.map(({ fileMb, format }) => {
      const a = join(dir, 'a.wav');
      const b = join(dir, 'b.wav');
      const files = writeBenchWav(a, fileMb, 0.4, format) + writeBenchWav(b, fileMb, 0.36, format);
      const run = spawnSync(process.execPath, [script, module, a, b], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`WAV import memory run failed: ${run.stderr}`);
      const m = JSON.parse(run.stdout) as { beforeKb: number; peakKb: number; seconds: number; loudnessDeltaLU: number };
      const growthMb = (m.peakKb - m.beforeKb) / 1024;
      return { fileMb, format, filesMb: files / MB, growthMb, growthOverFiles: (growthMb * MB) / files, seconds: m.seconds, loudnessDeltaLU: m.loudnessDeltaLU };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
