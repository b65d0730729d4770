import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * vLLM-Omni's real OpenAI server (`vllm-omni serve`) on CPU with the tiny Qwen3-TTS model, from the vLLM
 * environment of python/tests/vllm_omni/ (docs: /work/coord/vllm-env.md, docs/vllm-omni.md). Missing pieces
 * are an error, never a skip: CI builds that environment before it runs these tests.
 */
export const VLLM_ENV = resolve(process.env.PARITY_VLLM_ENV ?? '.venv-vllm');
const FIXTURES = resolve('python/tests/vllm_omni');

export interface VllmServer {
  url: string;
  traces: string;
  log: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The env's `vllm-omni`, the main env's python (tiny model builder), the deploy YAML: each must be there. */
export function requireVllmEnv(): { serve: string; deploy: string } {
  const serve = join(VLLM_ENV, 'bin', 'vllm-omni');
  const deploy = join(FIXTURES, 'qwen3_tts_cpu.yaml');
  for (const [what, path] of [['the vLLM env (node scripts/python-env.js --env vllm)', serve], ['the CPU deploy YAML', deploy], ['the tiny model builder', join(FIXTURES, 'tiny_model.py')]] as const) {
    if (!existsSync(path)) throw new Error(`${what} is missing: ${path}`);
  }
  return { serve, deploy };
}

/** Builds the tiny random-weight Qwen3-TTS model (main .venv, qwen-tts) into `dir`, ~30 s. */
export function buildTinyModel(dir: string): void {
  const run = spawnSync(resolve('.venv/bin/python'), [join(FIXTURES, 'tiny_model.py'), dir], { encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) throw new Error(`tiny_model.py failed (${run.status}): ${run.stderr.slice(-2000)}`);
}

/** Starts one server with its recorder writing to `<work>/traces-<name>`; `extra` are serve flags (the deploy setting). */
export function startVllmServer(name: string, model: string, port: number, work: string, extra: string[] = []): VllmServer {
  const { serve, deploy } = requireVllmEnv();
  const traces = join(work, `traces-${name}`);
  const lock = join(work, `lock-${name}`);
  mkdirSync(traces, { recursive: true });
  mkdirSync(lock, { recursive: true });
  const log = join(work, `serve-${name}.log`);
  const out = openSync(log, 'w');
  const child = spawn(serve, ['serve', model, '--omni', '--deploy-config', deploy, '--host', '127.0.0.1', '--port', String(port), '--stage-init-timeout', '900', '--init-timeout', '1200', ...extra], {
    env: { ...process.env, TTS_PARITY_VLLM_TRACE_DIR: traces, TTS_PARITY_VLLM_LOCK_DIR: lock, VLLM_CPU_KVCACHE_SPACE: '1', HF_HUB_OFFLINE: '1' },
    stdio: ['ignore', out, out],
    detached: true,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    traces,
    log,
    child,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        // The server's stage processes are in its process group.
        process.kill(-child.pid!, 'SIGTERM');
        setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 20_000).unref();
      }),
  };
}

/** Resolves when GET /v1/models answers 200; rejects with the log's tail if the server exits or `ms` pass. */
export async function waitReady(s: VllmServer, ms: number, tail: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null) throw new Error(`${s.url} exited with ${s.child.exitCode}: ${tail()}`);
    try {
      const r = await fetch(`${s.url}/v1/models`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${s.url} not ready after ${ms / 1000} s: ${tail()}`);
}
