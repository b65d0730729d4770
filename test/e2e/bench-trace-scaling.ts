/**
 * Scaling of `parity compare-trace --out` with the trace's length: two generated traces of N steps
 * (talker mean/std/min/max/argmax and 8 codes per step; B differs from step N/2 + 1 on), each pair
 * compared by the built CLI in a child process under /usr/bin/time -v (wall time, peak RSS). Writes
 * docs/figures/scaling-traces.json and docs/figures/scaling-traces.png.
 *
 *   npm run build && npx tsx test/e2e/bench-trace-scaling.ts [steps…]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchMachine } from './bench-machine.js';
import { writeTrace } from '../../electron/cli/bench/trace-file.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const figures = join(root, 'docs', 'figures');

interface Point {
  steps: number;
  traceMb: number;
  wallS: number;
  peakRssMb: number;
  reportJsonMb: number;
  exitCode: number;
}

async function one(steps: number): Promise<Point> {
  const dir = mkdtempSync(join(tmpdir(), 'trace-scaling-'));
  try {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await writeTrace(a, steps, steps + 1);
    await writeTrace(b, steps, Math.floor(steps / 2) + 1);
    const out = join(dir, 'out');
    const run = spawnSync(
      '/usr/bin/time',
      ['-v', process.execPath, join(root, 'bin', 'parity.js'), 'compare-trace', a, b, '--out', out],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    const field = (name: string) => new RegExp(`${name}: (.*)`).exec(run.stderr)?.[1] ?? '';
    const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
    let reportJsonMb = NaN;
    try {
      reportJsonMb = statSync(join(out, 'report.json')).size / 2 ** 20;
    } catch {
      // not written
    }
    return {
      steps,
      traceMb: statSync(a).size / 2 ** 20,
      wallS: m * 60 + s,
      peakRssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
      reportJsonMb,
      exitCode: run.status ?? -1,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lengths = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1000, 10000, 100000, 1000000];
const points: Point[] = [];
for (const steps of lengths) {
  points.push(await one(steps));
  process.stderr.write(`${JSON.stringify(points.at(-1))}\n`);
}
writeFileSync(
  join(figures, 'scaling-traces.json'),
  JSON.stringify(
    {
      bench: 'parity compare-trace --out scaling with trace length (test/e2e/bench-trace-scaling.ts)',
      createdAt: new Date().toISOString(),
      machine: benchMachine(),
      points,
    },
    null,
    2,
  ) + '\n',
);
execFileSync(
  process.execPath,
  [...process.execArgv, join(root, 'test', 'e2e', 'bench-scaling.ts'), '--plot-traces'],
  { stdio: 'inherit' },
);
