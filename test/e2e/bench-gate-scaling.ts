/**
 * Memory of `parity gate` with the trace's length: for each N, a trace fixture made by `parity
 * compare-trace --out` from two generated traces of N steps (B differs from step N/2 + 1 on, as in
 * bench-trace-scaling.ts), then `parity gate` on it under /usr/bin/time -v (wall time, peak RSS) and
 * the sha256 of what it printed, so two builds can be compared on the same fixtures. Prints JSON.
 *
 *   npm run build && npx tsx test/e2e/bench-gate-scaling.ts [steps…]
 *
 * BENCH_GATE_DIR keeps the fixtures there and reuses them (a 1,000,000-step fixture takes minutes to
 * make); PARITY_BIN runs another build's bin/parity.js for the gate (a copy of the previous build).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchMachine } from './bench-machine.js';
import { writeTrace } from '../../electron/cli/bench/trace-file.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const parity = resolve(process.env.PARITY_BIN ?? join(root, 'bin', 'parity.js'));
const kept = process.env.BENCH_GATE_DIR;

interface Timed {
  wallS: number;
  peakRssMb: number;
  exitCode: number;
  stdout: string;
}

function timed(args: string[]): Timed {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(run.stderr)?.[1] ?? '';
  const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  return { wallS: m * 60 + s, peakRssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024, exitCode: run.status ?? -1, stdout: run.stdout };
}

/** The fixture folder of N steps, made unless BENCH_GATE_DIR already holds it. */
async function fixture(dir: string, steps: number): Promise<string> {
  const out = join(dir, `fixture-${steps}`);
  if (existsSync(join(out, 'report.json'))) return out;
  const a = join(dir, `a-${steps}.jsonl`);
  const b = join(dir, `b-${steps}.jsonl`);
  await writeTrace(a, steps, steps + 1);
  await writeTrace(b, steps, Math.floor(steps / 2) + 1);
  const made = timed([join(root, 'bin', 'parity.js'), 'compare-trace', a, b, '--out', out]);
  if (made.exitCode > 1) throw new Error(`compare-trace of ${steps} steps exited ${made.exitCode}`);
  rmSync(a);
  rmSync(b);
  return out;
}

const lengths = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1000, 100_000, 1_000_000];
const dir = kept ?? mkdtempSync(join(tmpdir(), 'gate-scaling-'));
mkdirSync(dir, { recursive: true });
const points = [];
try {
  for (const steps of lengths) {
    const fx = await fixture(dir, steps);
    const gate = timed([parity, 'gate', fx]);
    points.push({
      steps,
      reportJsonMb: statSync(join(fx, 'report.json')).size / 2 ** 20,
      wallS: gate.wallS,
      peakRssMb: gate.peakRssMb,
      exitCode: gate.exitCode,
      stdoutSha256: createHash('sha256').update(gate.stdout).digest('hex'),
    });
    process.stderr.write(`${JSON.stringify(points.at(-1))}\n`);
  }
} finally {
  if (kept === undefined) rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ bench: 'parity gate on a compare-trace fixture (test/e2e/bench-gate-scaling.ts)', parity, createdAt: new Date().toISOString(), machine: benchMachine(), points }, null, 2));
