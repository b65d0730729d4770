/**
 * Scaling of the pair analysis with the take's length: compareSignals on two speech-like 24 kHz takes
 * (B = 0.8·A delayed 37 samples + noise, bench-signals.ts) of 1 s … 60 min, each length in a fresh child
 * process: wall time of one compare (after one warm-up compare for takes ≤ 60 s) and peak RSS
 * (getrusage maxRSS) against the RSS with the two takes already made. Writes
 * docs/figures/scaling-analysis.json and docs/figures/scaling-analysis.png (drawn with @napi-rs/canvas).
 *
 *   npx tsx test/e2e/bench-scaling.ts [seconds…]
 *   npx tsx test/e2e/bench-scaling.ts --plot-analysis   (redraw the PNG from the JSON)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchMachine } from './bench-machine.js';

const RATE = 24000;
const MB = 1024 * 1024;
const figures = fileURLToPath(new URL('../../docs/figures/', import.meta.url));

interface Point {
  seconds: number;
  /** The two takes' float32 samples, MB. */
  takesMb: number;
  compareMs: number;
  rssWithTakesMb: number;
  peakRssMb: number;
  /** peakRssMb − rssWithTakesMb: what the analysis itself adds. */
  analysisMb: number;
}

async function one(seconds: number): Promise<Point> {
  const { compareSignals } = await import('../../electron/common/analysis/compare.js');
  const { initFft } = await import('../../electron/common/analysis/fft.js');
  const { degradedCopy, speechLikeSignal } = await import('../../electron/cli/bench/bench-signals.js');
  await initFft();
  const a = speechLikeSignal(seconds, RATE, 1);
  const b = degradedCopy(a, 37, 0.8, 1e-4);
  const rssWithTakes = process.memoryUsage.rss();
  // The peak so far is the takes' generation; the compare's peak is read after, so a warm-up on short
  // takes (JIT) cannot hide it: maxRSS only grows.
  if (seconds <= 60) await compareSignals(a, b, RATE);
  const start = performance.now();
  await compareSignals(a, b, RATE);
  const compareMs = performance.now() - start;
  const peak = (process.resourceUsage().maxRSS * 1024) / MB;
  return {
    seconds,
    takesMb: (a.byteLength + b.byteLength) / MB,
    compareMs,
    rssWithTakesMb: rssWithTakes / MB,
    peakRssMb: peak,
    analysisMb: peak - rssWithTakes / MB,
  };
}

interface Panel {
  title: string;
  series: { values: number[]; color: string; label: string }[];
}

/** Log-log panels side by side over the same x values; `xLabel` names a tick. */
export async function plot(
  xs: number[],
  xLabel: (x: number) => string,
  panels: Panel[],
  caption: string,
): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const W = 1000;
  const H = 420;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const pw = 380;
  const top = 40;
  const ph = 300;
  const lx = (s: number) =>
    (Math.log10(s) - Math.log10(Math.min(...xs))) /
    (Math.log10(Math.max(...xs)) - Math.log10(Math.min(...xs)));
  panels.forEach((panel, n) => {
    const x0 = 70 + 500 * n;
    const values = panel.series.flatMap((s) => s.values.filter((v) => v > 0));
    const lo = Math.floor(Math.log10(Math.min(...values)));
    const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))));
    const X = (s: number) => x0 + lx(s) * pw;
    const Y = (v: number) => top + ph - ((Math.log10(Math.max(10 ** lo, v)) - lo) / (hi - lo)) * ph;
    ctx.strokeStyle = '#000';
    ctx.lineWidth = 1;
    ctx.strokeRect(x0, top, pw, ph);
    ctx.fillStyle = '#000';
    ctx.font = '14px sans-serif';
    ctx.fillText(panel.title, x0, top - 12);
    ctx.font = '11px sans-serif';
    for (let e = lo; e <= hi; e++) {
      const y = Y(10 ** e);
      ctx.strokeStyle = '#ddd';
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x0 + pw, y);
      ctx.stroke();
      ctx.fillStyle = '#000';
      ctx.fillText(10 ** e >= 1 ? String(10 ** e) : (10 ** e).toPrecision(1), x0 - 45, y + 4);
    }
    for (const x of xs) ctx.fillText(xLabel(x), X(x) - 14, top + ph + 16);
    panel.series.forEach((series, k) => {
      ctx.strokeStyle = series.color;
      ctx.fillStyle = series.color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      xs.forEach((x, i) =>
        i ? ctx.lineTo(X(x), Y(series.values[i])) : ctx.moveTo(X(x), Y(series.values[i])),
      );
      ctx.stroke();
      xs.forEach((x, i) => ctx.fillRect(X(x) - 3, Y(series.values[i]) - 3, 6, 6));
      ctx.fillText(series.label, x0 + 8, top + 16 + 14 * k);
    });
  });
  ctx.fillStyle = '#000';
  ctx.font = '11px sans-serif';
  ctx.fillText(caption, 70, H - 30);
  return canvas.toBuffer('image/png');
}

function plotAnalysis(points: Point[]): Promise<Buffer> {
  const v = (k: keyof Point) => points.map((p) => p[k]);
  return plot(
    v('seconds'),
    (s) => (s >= 60 ? `${s / 60} min` : `${s} s`),
    [
      {
        title: 'compare time (ms) vs take length',
        series: [{ values: v('compareMs'), color: '#1f77b4', label: 'compareSignals, ms' }],
      },
      {
        title: 'memory (MB) vs take length',
        series: [
          { values: v('peakRssMb'), color: '#d62728', label: 'peak RSS' },
          { values: v('takesMb'), color: '#7f7f7f', label: 'the two takes (float32)' },
          { values: v('analysisMb'), color: '#2ca02c', label: 'peak − RSS with the takes made' },
        ],
      },
    ],
    'two 24 kHz speech-like takes, B = 0.8·A delayed 37 samples + noise; log-log; shared 2-core machine (docs/performance.md)',
  );
}

interface TracePoint {
  steps: number;
  traceMb: number;
  wallS: number;
  peakRssMb: number;
}

function plotTraces(points: TracePoint[]): Promise<Buffer> {
  const v = (k: keyof TracePoint) => points.map((p) => p[k]);
  return plot(
    v('steps'),
    (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`),
    [
      {
        title: 'compare-trace --out time (s) vs steps',
        series: [{ values: v('wallS'), color: '#1f77b4', label: 'wall time, s' }],
      },
      {
        title: 'memory (MB) vs steps',
        series: [
          { values: v('peakRssMb'), color: '#d62728', label: 'peak RSS' },
          { values: v('traceMb'), color: '#7f7f7f', label: 'one trace file' },
        ],
      },
    ],
    'two generated traces (talker stats + 8 codes per step), B differs from the middle on; log-log; shared 2-core machine',
  );
}

if (process.argv[2] === '--plot-analysis') {
  // Redraws the figure from the committed numbers.
  const { points } = JSON.parse(readFileSync(`${figures}scaling-analysis.json`, 'utf8')) as { points: Point[] };
  writeFileSync(`${figures}scaling-analysis.png`, await plotAnalysis(points));
} else if (process.argv[2] === '--plot-traces') {
  const { points } = JSON.parse(readFileSync(`${figures}scaling-traces.json`, 'utf8')) as {
    points: TracePoint[];
  };
  writeFileSync(`${figures}scaling-traces.png`, await plotTraces(points));
} else if (process.argv[2] === '--one') {
  process.stdout.write(JSON.stringify(await one(Number(process.argv[3]))) + '\n');
} else {
  const lengths = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 10, 60, 600, 3600];
  const points: Point[] = [];
  for (const seconds of lengths) {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--one', String(seconds)],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    points.push(JSON.parse(out.trim().split('\n').pop()!) as Point);
    process.stderr.write(`${JSON.stringify(points.at(-1))}\n`);
  }
  const result = {
    bench: 'compareSignals scaling with take length (test/e2e/bench-scaling.ts)',
    createdAt: new Date().toISOString(),
    machine: benchMachine(),
    points,
  };
  writeFileSync(`${figures}scaling-analysis.json`, JSON.stringify(result, null, 2) + '\n');
  writeFileSync(`${figures}scaling-analysis.png`, await plotAnalysis(points));
  process.stderr.write(`wrote ${figures}scaling-analysis.json and .png\n`);
}
