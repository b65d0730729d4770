import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchCompareTraceMemory } from '../../../../electron/cli/bench/compare-trace-memory.js';
import { compareTraceRows } from '../../../../electron/cli/bench/bench-table.js';
import type { BenchResults } from '../../../../electron/cli/bench/bench-results.js';

// The child process runs the built CLI (run `npx tsc -p tsconfig.build.json` first).
const built = pathToFileURL(join(fileURLToPath(new URL('../../../../', import.meta.url)), 'dist', 'electron', 'cli', 'main.js')).href;

describe('benchCompareTraceMemory', () => {
  it.runIf(process.platform === 'linux')('measures compare-trace --out of a 1,000- and a 3,000-step pair in children: peak, seconds, first divergent step', async () => {
    const bench = await benchCompareTraceMemory([1000, 3000], built);
    expect(bench).not.toBeNull();
    const { points, heapCapMb, targetMb, underTarget, growthMb } = bench!;
    expect([heapCapMb, targetMb]).toEqual([128, 400]);
    expect(points.map((p) => p.steps)).toEqual([1000, 3000]);
    // B was generated to differ from step steps / 2 + 1 on: the report found that step.
    expect(points.map((p) => p.firstStep)).toEqual([501, 1501]);
    for (const p of points) {
      expect(p.exitCode).toBe(0);
      // A node process that ran the CLI holds at least its code: tens of MB, never 0 (a missing reading).
      expect(p.peakRssMb).toBeGreaterThan(20);
      expect(p.seconds).toBeGreaterThan(0);
    }
    expect(points[1].traceMb).toBeGreaterThan(2.5 * points[0].traceMb);
    expect(growthMb).toBeCloseTo(points[1].peakRssMb - points[0].peakRssMb, 10);
    expect(underTarget).toBe(points.every((p) => p.peakRssMb < 400));
  }, 60_000);

  it('refuses a run whose child fails, naming the step count', async () => {
    await expect(benchCompareTraceMemory([100], pathToFileURL('/nonexistent/main.js').href)).rejects.toThrow(/compare-trace memory run \(100 steps\) exited 1/);
  });

  it('the table marks the 400 MB target met only when it is, gives the growth, and says n/a off Linux', () => {
    const base = {} as BenchResults;
    const render = (r: BenchResults) => compareTraceRows(r).map((row) => row.join(' ')).join('\n');
    const point = (steps: number, peakRssMb: number) => ({ steps, traceMb: steps / 7000, peakRssMb, seconds: 2, exitCode: 0, firstStep: steps / 2 + 1 });
    const bench = (peaks: [number, number]) => ({
      heapCapMb: 128,
      targetMb: 400,
      points: [point(20_000, peaks[0]), point(80_000, peaks[1])],
      underTarget: peaks.every((p) => p < 400),
      growthMb: peaks[1] - peaks[0],
    });
    const met = render({ ...base, analysisMemory: { wavImport: [], compareTrace: bench([181, 196]) } });
    expect(met).toContain('compare-trace 20,000 steps 181 MB peak RSS (2 × 2.9 MB traces, 128 MB heap), 2.0 s  (target < 400 MB: met)');
    expect(met).toContain('compare-trace growth +15 MB from 20,000 to 80,000 steps');
    expect(render({ ...base, analysisMemory: { wavImport: [], compareTrace: bench([181, 400]) } })).toContain('80,000 steps 400 MB peak RSS (2 × 11.4 MB traces, 128 MB heap), 2.0 s  (target < 400 MB: not met)');
    expect(render({ ...base, analysisMemory: { wavImport: null, compareTrace: null } })).toBe('compare-trace peak n/a (Linux only)');
    expect(render(base)).toBe('');
  });
});
