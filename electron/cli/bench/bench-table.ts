import type { BenchResults } from './bench-results.js';

const PAIR_TARGET_MS = 150;

/** A few aligned lines for a terminal; the JSON holds the same numbers. */
export function renderBenchTable(results: BenchResults): string {
  const { machine: m, analysis: x } = results;
  const ms = (v: number | null) => (v === null ? 'n/a (no ffmpeg)' : `${v.toFixed(1)} ms`);
  const ratio =
    x.ffmpegEbur128600sMs === null
      ? ''
      : `  (${(x.loudness600sMs / x.ffmpegEbur128600sMs).toFixed(2)}× ffmpeg)`;
  const rows: [string, string][] = [
    ['machine', `${m.cpus}× ${m.cpuModel}, node ${m.node}, onnxruntime ${m.onnxruntime ?? 'absent'}`],
    [
      'compare 2 × 60 s @ 24 kHz',
      `${ms(x.pair60sMs)}  (CPU ${ms(x.pair60sCpuMs)}; target ≤ ${PAIR_TARGET_MS} ms)`,
    ],
    ['loudness 10 min @ 24 kHz', `${ms(x.loudness600sMs)}  (CPU ${ms(x.loudness600sCpuMs)})${ratio}`],
    ['ffmpeg ebur128 10 min', ms(x.ffmpegEbur128600sMs)],
    ...peerRows(x.peers),
    ...wavImportRows(results),
    ...compareTraceRows(results),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return (
    `analysis bench, median of ${x.runs} runs after a warm-up\n` +
    rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n') +
    '\n'
  );
}

const f = (v: number | null | undefined, digits: number) => (v == null ? 'n/a' : v.toFixed(digits));
const times = (wall: number | null, cpu?: number | null) =>
  wall == null ? '' : `, peer/ours ${wall.toFixed(2)}× wall${cpu == null ? '' : `, ${cpu.toFixed(2)}× CPU`}`;

/** Our value and time beside each peer's, from the same run (peer-bench.ts). */
function peerRows(p: BenchResults['analysis']['peers'] | undefined): [string, string][] {
  if (!p) return [];
  const l = p.loudness;
  const rows: [string, string][] = [
    [
      'integrated 10 min: ours',
      `${f(l.ours.integratedLufs, 3)} LUFS, LRA ${f(l.ours.lraLu, 2)} LU, ${f(l.ours.integratedMs, 1)} ms (with LRA ${f(l.ours.integratedAndLraMs, 1)} ms)`,
    ],
    [
      '  ffmpeg ebur128',
      l.ffmpeg
        ? `${f(l.ffmpeg.integratedLufs, 1)} LUFS, LRA ${f(l.ffmpeg.lraLu, 1)} LU, ${f(l.ffmpeg.ms, 1)} ms${times(l.speedRatios.ffmpeg, l.cpuRatios?.ffmpeg)}`
        : 'n/a (no ffmpeg)',
    ],
    [
      '  libebur128',
      l.libebur128
        ? `${f(l.libebur128.integratedLufs, 3)} LUFS, LRA ${f(l.libebur128.lraLu, 2)} LU, ${f(l.libebur128.integratedMs, 1)} ms${times(l.speedRatios.libebur128, l.cpuRatios?.libebur128)}`
        : 'n/a',
    ],
    [
      '  pyloudnorm',
      l.pyloudnorm
        ? `${f(l.pyloudnorm.integratedLufs, 3)} LUFS, ${f(l.pyloudnorm.integratedMs, 1)} ms${times(l.speedRatios.pyloudnorm, l.cpuRatios?.pyloudnorm)}`
        : 'n/a',
    ],
    ['xcorr 60 s ±50 ms: ours', `lag ${p.xcorr.ours.lag}, ${f(p.xcorr.ours.ms, 1)} ms`],
    [
      '  scipy correlate fft',
      p.xcorr.scipy
        ? `lag ${p.xcorr.scipy.lag}, ${f(p.xcorr.scipy.ms, 1)} ms${times(p.xcorr.speedRatio, p.xcorr.cpuRatio)}`
        : 'n/a',
    ],
    [
      'LSD/MCD 60 s: ours',
      `${f(p.spectral.ours.atZero.lsdDb, 4)} / ${f(p.spectral.ours.atZero.mcdDb, 4)} dB, ${f(p.spectral.ours.ms, 1)} ms`,
    ],
    [
      '  librosa',
      p.spectral.librosa
        ? `${f(p.spectral.librosa.atZero.lsdDb, 4)} / ${f(p.spectral.librosa.atZero.mcdDb, 4)} dB, ${f(p.spectral.librosa.ms, 1)} ms${times(p.spectral.speedRatio, p.spectral.cpuRatio)}`
        : 'n/a',
    ],
  ];
  if (p.skipped) rows.push(['  Python peers', `not run: ${p.skipped}`]);
  return rows;
}

const WAV_IMPORT_TARGET = 2;

export function wavImportRows(results: BenchResults): [string, string][] {
  const points = results.analysisMemory?.wavImport;
  if (points === undefined) return [];
  if (points === null) return [['WAV-pair import peak', 'n/a (Linux only: reads /proc)']];
  return points.map((p) => [
    `WAV-pair import 2 × ${p.fileMb} MB ${p.format}`,
    `+${p.growthMb.toFixed(0)} MB peak = ${p.growthOverFiles.toFixed(2)}× files, ${p.seconds.toFixed(1)} s  (target ≤ ${WAV_IMPORT_TARGET}×: ${p.growthOverFiles <= WAV_IMPORT_TARGET ? 'met' : 'not met'})`,
  ]);
}

export function compareTraceRows(results: BenchResults): [string, string][] {
  const bench = results.analysisMemory?.compareTrace;
  if (bench === undefined) return [];
  if (bench === null) return [['compare-trace peak', 'n/a (Linux only)']];
  const rows = bench.points.map((p): [string, string] => [
    `compare-trace ${p.steps.toLocaleString('en-US')} steps`,
    `${p.peakRssMb.toFixed(0)} MB peak RSS (2 × ${p.traceMb.toFixed(1)} MB traces, ${bench.heapCapMb} MB heap), ${p.seconds.toFixed(1)} s  (target < ${bench.targetMb} MB: ${p.peakRssMb < bench.targetMb ? 'met' : 'not met'})`,
  ]);
  if (bench.points.length > 1) {
    const [first, last] = [bench.points[0], bench.points[bench.points.length - 1]];
    rows.push([`compare-trace growth`, `${bench.growthMb >= 0 ? '+' : ''}${bench.growthMb.toFixed(0)} MB from ${first.steps.toLocaleString('en-US')} to ${last.steps.toLocaleString('en-US')} steps`]);
  }
  return rows;
}
