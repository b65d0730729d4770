import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTrace } from './trace-file.js';

const MB = 2 ** 20;
/** Issue 29's bound for a 1,000,000-step pair. */
export const COMPARE_TRACE_TARGET_MB = 400;
/**
 * The child's V8 heap limit. Without one, V8 lets its heap grow into free memory before it collects, so
 * peak RSS would measure the machine's free memory, not what compare-trace keeps (docs/performance.md,
 * "Scaling"); a reader that held the traces or their rows would run out of this heap and fail the run.
 */
export const COMPARE_TRACE_HEAP_MB = 128;

export interface CompareTraceMemoryPoint {
  steps: number;
  /** Size of one trace file, MB. */
  traceMb: number;
  /** The child's own peak resident set size (process.resourceUsage().maxRSS), MB. */
  peakRssMb: number;
  /** Wall time of the child process (start to exit), s. */
  seconds: number;
  exitCode: number;
  /** report.json's divergence.firstStep; B was generated to differ from this step on. */
  firstStep: number;
}

export interface CompareTraceMemoryBench {
  heapCapMb: number;
  targetMb: number;
  points: CompareTraceMemoryPoint[];
  /** Every point's peakRssMb < targetMb. */
  underTarget: boolean;
  /** peakRssMb of the longest pair minus the shortest's, MB: near 0 when memory does not grow with steps. */
  growthMb: number;
}

// Runs the CLI in this process, so maxRSS is compare-trace's own peak (with node's start), and writes it
// to a file: stdout is the command's.
const child = `
import { writeFileSync } from 'node:fs';
const [entry, result, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], 'parity', ...args];
process.on('exit', () => writeFileSync(result, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })));
await import(entry);
`;

/** The built CLI, next to this folder in dist/ (a script run from source passes dist's copy). */
export const parityCliModule = new URL('../main.js', import.meta.url).href;

/**
 * Peak memory of `parity compare-trace A B --out DIR` for generated pairs of each length (B differs from
 * the middle on), one fresh child process per length under a 128 MB heap. Throws when a run fails or
 * finds another first divergent step. Null off Linux (maxRSS units and RSS accounting differ).
 */
export async function benchCompareTraceMemory(stepCounts: number[], cli = parityCliModule): Promise<CompareTraceMemoryBench | null> {
  if (process.platform !== 'linux' || stepCounts.length === 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'bench-compare-trace-'));
  try {
    const script = join(dir, 'compare-trace-child.mjs');
    writeFileSync(script, child);
    const points: CompareTraceMemoryPoint[] = [];
    for (const steps of stepCounts) {
      const [a, b, out, result] = ['a.jsonl', 'b.jsonl', `out-${steps}`, 'result.json'].map((name) => join(dir, name));
      const differFrom = Math.floor(steps / 2) + 1;
      await writeTrace(a, steps, steps + 1);
      await writeTrace(b, steps, differFrom);
      const started = performance.now();
      const run = spawnSync(process.execPath, [script, cli, result, 'compare-trace', a, b, '--out', out], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: `--max-old-space-size=${COMPARE_TRACE_HEAP_MB}` },
        maxBuffer: 1 << 26,
      });
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 0) throw new Error(`compare-trace memory run (${steps} steps) exited ${run.status ?? run.signal}: ${run.stderr}`);
      const m = JSON.parse(readFileSync(result, 'utf8')) as { maxRssKb: number };
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { divergence: { firstStep: number } };
      const firstStep = report.divergence.firstStep;
      if (firstStep !== differFrom) throw new Error(`compare-trace memory run (${steps} steps): first divergent step ${firstStep}, generated ${differFrom}`);
      points.push({ steps, traceMb: statSync(a).size / MB, peakRssMb: m.maxRssKb / 1024, seconds, exitCode: run.status, firstStep });
      rmSync(out, { recursive: true, force: true });
    }
    const peaks = points.map((p) => p.peakRssMb);
    return {
      heapCapMb: COMPARE_TRACE_HEAP_MB,
      targetMb: COMPARE_TRACE_TARGET_MB,
      points,
      underTarget: peaks.every((p) => p < COMPARE_TRACE_TARGET_MB),
      growthMb: peaks[peaks.length - 1] - peaks[0],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
