/**
 * Peak memory of a WAV-pair import as the engine worker runs it (electron/host/tasks/compare-wav-bytes.ts:
 * both files read from disk by path, decoded, compared), each run in a fresh process: the kernel's peak
 * (VmHWM) over the resident set just before the import, and that growth over the two files' bytes.
 * Prints JSON. Linux only (reads /proc).
 *
 *   npm run build && npx tsx test/e2e/bench-wav-import.ts [MB per file…]
 *
 * BENCH_DIST runs another build's dist/ (a copy of the previous build) for a before/after.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { benchMachine } from './bench-machine.js';

const MB = 2 ** 20;
const RATE = 24_000;
const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = resolve(process.env.BENCH_DIST ?? join(root, 'dist'));

function writeWav(path: string, megabytes: number, gain: number): number {
  const n = Math.floor((megabytes * MB) / 2); // pcm16 mono
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = gain * Math.sin((2 * Math.PI * 150 * i) / RATE) * (0.5 + 0.5 * Math.sin(i / 7000));
  writeFileSync(path, encodeWav([x], RATE, 'pcm16'));
  return statSync(path).size;
}

// Run in the child: the module loaded first, so only the import's own memory is measured.
const child = `
import { readFileSync } from 'node:fs';
const { compareWavBytes } = await import(process.argv[1]);
const kb = (field) => Number(new RegExp(field + ':\\\\s+(\\\\d+) kB').exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const before = kb('VmRSS');
const started = performance.now();
const result = await compareWavBytes({ kind: 'compare-wavs', a: { name: 'a.wav', path: process.argv[2] }, b: { name: 'b.wav', path: process.argv[3] }, maxLagMs: 50, createdAt: '2026-01-01T00:00:00.000Z' });
process.stdout.write(JSON.stringify({ beforeKb: before, peakKb: kb('VmHWM'), seconds: (performance.now() - started) / 1000, verdict: result.report.verdict }));
`;

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [50, 100];
const dir = mkdtempSync(join(tmpdir(), 'bench-wav-import-'));
const points = [];
try {
  for (const megabytes of sizes) {
    const a = join(dir, 'a.wav');
    const b = join(dir, 'b.wav');
    const files = writeWav(a, megabytes, 0.4) + writeWav(b, megabytes, 0.36);
    const module = pathToFileURL(join(dist, 'electron', 'host', 'tasks', 'compare-wav-bytes.js')).href;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', child, module, a, b], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    const m = JSON.parse(run.stdout) as { beforeKb: number; peakKb: number; seconds: number; verdict: string };
    const growthMb = (m.peakKb - m.beforeKb) / 1024;
    points.push({ fileMb: megabytes, filesMb: files / MB, growthMb, growthOverFiles: (growthMb * MB) / files, seconds: m.seconds, verdict: m.verdict });
    process.stderr.write(`${JSON.stringify(points.at(-1))}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ bench: 'WAV-pair import, the worker steps in one process (test/e2e/bench-wav-import.ts)', dist, files: '2 x pcm16 mono 24 kHz', machine: benchMachine(), points }, null, 2));
