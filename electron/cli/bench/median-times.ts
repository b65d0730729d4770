/**
 * Median wall and CPU time (this process, user + system) of `runs` calls after one warm-up call.
 * On a shared machine the wall time includes waiting for a core; the CPU time does not.
 */
export async function medianTimes(
  runs: number,
  work: () => unknown,
): Promise<{ wallMs: number; cpuMs: number }> {
  const [times] = await interleavedMedianTimes(runs, [work]);
  return times;
}

/**
 * medianTimes of several pieces of work timed side by side: each is warmed up once before any is timed,
 * then the runs take turns (run i of every piece before run i + 1 of any), so that neither the JIT's
 * warming nor a change in the machine's load favours whichever is timed first.
 */
export async function interleavedMedianTimes(
  runs: number,
  works: readonly (() => unknown)[],
): Promise<{ wallMs: number; cpuMs: number }[]> {
  for (const work of works) await work();
  const wall = works.map((): number[] => []);
  const cpu = works.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (let w = 0; w < works.length; w++) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await works[w]();
      wall[w].push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpu[w].push((used.user + used.system) / 1000);
    }
  }
  return works.map((_, w) => ({ wallMs: median(wall[w]), cpuMs: median(cpu[w]) }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
