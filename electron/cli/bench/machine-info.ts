import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, platform, arch } from 'node:os';
import type { MachineInfo } from './bench-results.js';

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    node: process.versions.node,
    platform: `${platform()}-${arch()}`,
    onnxruntime: packageVersion('onnxruntime-node'),
  };
}

/** Reads the installed package's version without loading it (onnxruntime's native addon is slow to load). */
function packageVersion(name: string): string | null {
  try {
    const path = createRequire(import.meta.url).resolve(`${name}/package.json`);
    const version: unknown = JSON.parse(readFileSync(path, 'utf8')).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}
