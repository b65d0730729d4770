import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Where the engine runs: a worker thread or a child process, behind one small interface.
 *
 * The host uses a child process by default: terminating a worker thread while onnxruntime-node is
 * inside a native call can abort the whole process ("terminate called after throwing an instance of
 * 'Napi::Error'", seen here about one kill in three), so a thread cannot be killed safely on a hang.
 * A process can. Threads stay available for pure-JS work and for tests.
 */
export type IsolationMode = 'process' | 'thread';

export interface EngineChannel {
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the worker is gone, with a sentence saying why. */
  onExit(listener: (reason: string) => void): void;
  kill(): Promise<void>;
  ref(): void;
  unref(): void;
}

export interface ChannelOptions {
  url: URL;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
}

export function openChannel(mode: IsolationMode, options: ChannelOptions): EngineChannel {
  return mode === 'thread' ? threadChannel(options) : processChannel(options);
}

function threadChannel({ url, workerData, resourceLimits }: ChannelOptions): EngineChannel {
  const worker = new Worker(url, { workerData, resourceLimits });
  let reason: string | undefined;
  worker.on('error', (error: Error & { code?: string }) => {
    reason =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of memory (limit ${resourceLimits?.maxOldGenerationSizeMb ?? 'default'} MB heap)` : `crashed: ${error.message}`;
  });
  return {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onMessage: (listener) => void worker.on('message', listener),
    onExit: (listener) => void worker.on('exit', (code) => listener(reason ?? `exited with code ${code}`)),
    kill: async () => void (await worker.terminate()),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
  };
}

function processChannel({ url, workerData, resourceLimits }: ChannelOptions): EngineChannel {
  const heapMb = resourceLimits?.maxOldGenerationSizeMb;
  const child: ChildProcess = fork(fileURLToPath(url), [], {
    serialization: 'advanced', // structured clone: typed arrays cross as bytes, not JSON
    execArgv: heapMb ? [`--max-old-space-size=${heapMb}`] : [],
    env: { ...process.env, PARITY_WORKER_DATA: JSON.stringify(workerData ?? {}) },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString()).slice(-4000);
  });
  let killed = false;
  return {
    post: (message) => {
      if (child.connected) child.send(message as never);
    },
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) =>
      void child.on('exit', (code, signal) => {
        const crash = /Error: (.+)\n/.exec(stderrTail)?.[1];
        if (/heap out of memory|Allocation failed/.test(stderrTail)) listener(`ran out of memory (limit ${heapMb ?? 'default'} MB heap)`);
        else if (killed) listener(`exited with code 1`);
        else if (crash && code !== 0) listener(`crashed: ${crash}`);
        else listener(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      killed = true;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await gone;
    },
    ref: () => {
      child.ref();
      (child.channel as { ref?: () => void } | undefined)?.ref?.();
    },
    unref: () => {
      child.unref();
      (child.channel as { unref?: () => void } | undefined)?.unref?.();
    },
  };
}
