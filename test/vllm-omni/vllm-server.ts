import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * vLLM-Omni's real OpenAI server (`vllm-omni serve`) on CPU with the tiny Qwen3-TTS model, from the vLLM
 * environment of python/tests/vllm_omni/ (docs/vllm-omni.md). Missing pieces are an error, never a skip:
 * CI builds that environment (the vllm-omni pytest suite) before these tests run.
 */
export const VLLM_ENV = resolve(process.env.PARITY_VLLM_ENV ?? '.venv-vllm');
const FIXTURES = resolve('python/tests/vllm_omni');

/** What a test file needs of one running server (vitest's provide/inject carries it as JSON). */
export interface ServerInfo {
  name: string;
  /** The serve flags that make this deployment what it is. */
  flags: string[];
  url: string;
  /** The folder the server's recorder writes its traces to (TTS_PARITY_VLLM_TRACE_DIR). */
  traces: string;
  log: string;
}

export interface VllmServer extends ServerInfo {
  child: ChildProcess;
  stop(): Promise<void>;
  /** SIGKILL to the server's process group, synchronously (for process 'exit'). */
  kill(): void;
}

/** The env's `vllm-omni` and the deploy YAML: each must be there. */
export function requireVllmEnv(): { serve: string; deploy: string } {
  const serve = join(VLLM_ENV, 'bin', 'vllm-omni');
  const deploy = join(FIXTURES, 'qwen3_tts_cpu.yaml');
  for (const [what, path] of [['the vLLM env (node scripts/python-env.js --env vllm)', serve], ['the CPU deploy YAML', deploy]] as const) {
    if (!existsSync(path)) throw new Error(`${what} is missing: ${path}`);
  }
  return { serve, deploy };
}

/**
 * The tiny random-weight Qwen3-TTS model, in the folder the pytest suite's `tiny_model` fixture keeps it
 * (python/tests/vllm_omni/conftest.py: under the vLLM env, keyed on tiny_model.py's hash), so a CI run builds
 * it once; built here (main .venv, qwen-tts, ~40 s) when that suite has not run.
 */
export function tinyModel(): string {
  const source = join(FIXTURES, 'tiny_model.py');
  const key = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 12);
  const out = join(VLLM_ENV, 'tts-parity-fixtures', `qwen3-tts-tiny-${key}`);
  if (existsSync(join(out, 'model.safetensors'))) return out;
  const partial = `${out}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const python = process.env.PARITY_MAIN_PYTHON ?? resolve('.venv/bin/python');
  const run = spawnSync(python, [source, partial], {
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, HF_HUB_OFFLINE: '1', PYTHONPATH: resolve('python') },
  });
  if (run.status !== 0) throw new Error(`tiny_model.py failed (${run.status ?? run.signal}): ${run.stderr.slice(-2000)}`);
  renameSync(partial, out);
  return out;
}

/** `n` distinct loopback ports nothing listens on now (each probe held open until all are found). */
export async function freePorts(n: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from({ length: n }, () => new Promise<Server>((done, fail) => {
      const probe = createServer();
      probe.once('error', fail);
      probe.listen(0, '127.0.0.1', () => done(probe));
    })),
  );
  const ports = probes.map((p) => (p.address() as AddressInfo).port);
  await Promise.all(probes.map((p) => new Promise((done) => p.close(done))));
  return ports;
}

/** Starts one server in its own process group, its recorder writing to `<work>/traces-<name>`; `flags` are its deploy setting. */
export function startVllmServer(name: string, model: string, port: number, work: string, flags: string[] = []): VllmServer {
  const { serve, deploy } = requireVllmEnv();
  const traces = join(work, `traces-${name}`);
  const lock = join(work, `lock-${name}`);
  mkdirSync(traces, { recursive: true });
  mkdirSync(lock, { recursive: true });
  const log = join(work, `serve-${name}.log`);
  const out = openSync(log, 'w');
  const args = ['serve', model, '--omni', '--deploy-config', deploy, '--host', '127.0.0.1', '--port', String(port), '--stage-init-timeout', '900', '--init-timeout', '1200', ...flags];
  const child = spawn(serve, args, {
    env: { ...process.env, TTS_PARITY_VLLM_TRACE_DIR: traces, TTS_PARITY_VLLM_LOCK_DIR: lock, SPEAKER_SAMPLES_DIR: join(work, `speakers-${name}`), VLLM_CPU_KVCACHE_SPACE: '1', VLLM_LOGGING_COLOR: '0', HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' },
    stdio: ['ignore', out, out],
    detached: true,
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  return {
    name,
    flags,
    url: `http://127.0.0.1:${port}`,
    traces,
    log,
    child,
    kill: () => group('SIGKILL'),
    stop: () =>
      new Promise((done) => {
        // The stage processes are in the server's process group: they go with it.
        const last = setTimeout(() => group('SIGKILL'), 20_000);
        const finish = () => {
          clearTimeout(last);
          group('SIGKILL');
          done();
        };
        if (child.exitCode !== null || child.signalCode !== null) return finish();
        child.once('exit', finish);
        group('SIGTERM');
      }),
  };
}

/** The log's last lines, for the one line that says a server did not come up. */
export function logTail(log: string, lines = 25): string {
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  return text.split('\n').filter(Boolean).slice(-lines).join('\n');
}

/** Resolves when GET /v1/models answers 200; rejects, naming the server, if it exits or `ms` pass. */
export async function waitReady(s: VllmServer, ms: number): Promise<number> {
  const started = Date.now();
  const what = `vLLM-Omni server ${s.name} (${s.flags.length ? s.flags.join(' ') : 'the deploy YAML as it is'}, ${s.url})`;
  while (Date.now() - started < ms) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) {
      throw new Error(`${what} exited (${s.child.exitCode ?? s.child.signalCode}) before it was ready; log ${s.log}, its tail:\n${logTail(s.log)}`);
    }
    try {
      const r = await fetch(`${s.url}/v1/models`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return (Date.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${what} was not ready after ${ms / 1000} s; log ${s.log}, its tail:\n${logTail(s.log)}`);
}
