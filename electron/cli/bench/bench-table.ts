import type { BenchResults } from './bench-results.js';

const PAIR_TARGET_MS = 300;

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
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return (
    `analysis bench, median of ${x.runs} runs after a warm-up\n` +
    rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n') +
    '\n'
  );
}
