/**
 * Median wall and CPU time (this process, user + system) of `runs` calls after one warm-up call.
 * On a shared machine the wall time includes waiting for a core; the CPU time does not.
 */
export async function medianTimes(
  runs: number,
  work: () => unknown,
): Promise<{ wallMs: number; cpuMs: number }> {
  await work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await work();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
