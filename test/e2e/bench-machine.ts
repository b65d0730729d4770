import { cpus, loadavg } from 'node:os';

/** What a scaling figure's JSON records about the machine that measured it. */
export function benchMachine(): { cpus: number; cpuModel: string; node: string; loadAverage: number[] } {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', node: process.versions.node, loadAverage: loadavg() };
}
