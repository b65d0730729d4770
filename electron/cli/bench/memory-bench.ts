import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Engine } from '../../engine/engine.js';
import type { MemoryBench } from './bench-results.js';
import { timedSynthesis } from './engine-bench.js';

const MB = 1024 * 1024;

/** A full-GC function: the global one under --expose-gc, else one obtained by setting the flag at run time. */
function fullGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

/**
 * `count` syntheses of one profile with a full GC before each heap reading: growth of heapUsed from
 * after the first to after the last (a leak of one buffer per run shows as count × its size), and the
 * peak RSS seen (ORT's native memory included).
 */
export async function benchMemory(engine: Engine, profile = 'graph', count = 20): Promise<MemoryBench> {
  const gc = fullGc();
  let rssPeak = process.memoryUsage.rss();
  const heapAfterGc = (): number => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  let first = 0;
  let last = 0;
  for (let i = 0; i < count; i++) {
    await timedSynthesis(engine, profile);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    if (i === 0) first = heapAfterGc();
    if (i === count - 1) last = heapAfterGc();
  }
  return { heapGrowthMbOver20: (last - first) / MB, rssPeakMb: rssPeak / MB, syntheses: count, profile, gc: gc !== undefined };
}
