import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildOnce } from '../e2e/build-once.js';
import { buildReportPageIfStale } from '../setup/build.js';
import { freePorts, startVllmServer, tinyModel, waitReady, type ServerInfo, type VllmServer } from './vllm-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    vllm: { model: string; work: string; a: ServerInfo; b: ServerInfo; readySeconds: { a: number; b: number } };
  }
}

/** How long a server may take to answer GET /v1/models (PARITY_VLLM_SERVE_WAIT_S): ~2-3 min on an idle 2-core machine, far more under load. */
const WAIT_MS = Number(process.env.PARITY_VLLM_SERVE_WAIT_S ?? 1500) * 1000;

/**
 * Vitest globalSetup of vitest.vllm.config.ts: the two deployments every test file compares, started once per
 * run, at once: A with the CPU deploy YAML as it is (whole Code2Wav), B with --async-chunk (streamed Code2Wav),
 * each with its own recorder folder and device-lock folder. They are killed (process group) on teardown and on
 * any exit of this process, including a signal.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The CLI, `parity serve` and the studio run from dist/; every fixture writer inlines the report page.
  buildOnce();
  await buildReportPageIfStale();
  const model = tinyModel();
  const work = mkdtempSync(join(tmpdir(), 'parity-vllm-deploy-'));
  const servers: VllmServer[] = [];
  const killAll = () => servers.forEach((s) => s.kill());
  const onSignal = (signal: NodeJS.Signals) => {
    killAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
  const teardown = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    process.off('exit', killAll);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const [portA, portB] = await freePorts(2);
    servers.push(startVllmServer('A', model, portA, work));
    servers.push(startVllmServer('B', model, portB, work, ['--async-chunk']));
    const [a, b] = await Promise.all(servers.map((s) => waitReady(s, WAIT_MS)));
    process.stderr.write(`vllm-omni servers ready: A ${a.toFixed(0)} s, B ${b.toFixed(0)} s (started at once)\n`);
    const info = ({ name, flags, url, traces, log }: VllmServer): ServerInfo => ({ name, flags, url, traces, log });
    project.provide('vllm', { model, work, a: info(servers[0]), b: info(servers[1]), readySeconds: { a, b } });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
