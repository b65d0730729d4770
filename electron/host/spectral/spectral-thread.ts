import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpectralJob, SpectralRunner } from '../../common/analysis/compare.js';
import {
  type SpectralDistances,
  type SpectralPair,
  SpectralSession,
} from '../../common/analysis/spectral.js';
import { ParityError } from '../../common/errors.js';
import type { SpectralReply, SpectralRequest } from './spectral-protocol.js';

/**
 * One warm worker thread that computes compareSignals' spectral distances while the calling thread
 * computes the rest (CompareOptions.spectral). Same code on both threads, so the same numbers.
 * A worker that fails to start or dies rejects the comparison with a clear error; it is not replaced
 * by a computation on the calling thread behind the caller's back.
 */
export class SpectralThread {
  private worker: Worker | undefined;
  private failure: string | undefined;
  private nextId = 0;
  private readonly staging = new Staging();
  /** Jobs whose distances are not answered yet; the staging buffer is reused only when there are none. */
  private open = 0;

  /**
   * workerUrl: the worker's script, for tests that need one that fails (default: spectral-worker.js).
   * stagingLimitBytes: takes that need more than this copied onto shared memory are measured on the
   * calling thread instead (same code, same numbers), so that the copy never adds more than this to the
   * peak of a long import (STAGING_LIMIT_BYTES).
   */
  constructor(
    private readonly workerUrl: () => URL = spectralWorkerUrl,
    private readonly stagingLimitBytes = STAGING_LIMIT_BYTES,
  ) {}
  private readonly waiting = new Map<
    number,
    { resolve: (d: SpectralDistances[]) => void; reject: (e: Error) => void }
  >();

  /** The runner to pass as CompareOptions.spectral. */
  readonly run: SpectralRunner = (sampleRate, cacheBytes) => this.job(sampleRate, cacheBytes);

  private job(sampleRate: number, cacheBytes: number | undefined): SpectralJob {
    const id = this.nextId++;
    const staging = this.open === 0 ? this.staging.reset() : new Staging();
    this.open++;
    let added = false;
    let here: SpectralSession | undefined;
    return {
      add: (pairs) => {
        if (pairs.length === 0) return;
        if (!added && !here && staging.bytesToShare(pairs) > this.stagingLimitBytes) {
          here = new SpectralSession(sampleRate, cacheBytes);
          this.open--;
        }
        if (here) return here.add(pairs);
        const message: SpectralRequest = {
          kind: 'add',
          id,
          pairs: staging.share(pairs),
          sampleRate,
          cacheBytes,
        };
        this.started().postMessage(message);
        added = true;
      },
      distances: () => {
        if (here) {
          const session = here;
          return new Promise<SpectralDistances[]>((resolve) => resolve(session.distances()));
        }
        if (!added) {
          this.open--;
          return Promise.resolve([]);
        }
        return new Promise<SpectralDistances[]>((resolve, reject) => {
          const worker = this.started();
          this.waiting.set(id, { resolve, reject });
          worker.ref();
          worker.postMessage({ kind: 'distances', id } satisfies SpectralRequest);
        }).finally(() => this.open--);
      },
    };
  }

  /** Stops the worker; a later comparison starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.failure !== undefined) throw new ParityError('internal', this.failure);
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl());
    worker.unref(); // an idle warm worker does not keep the process alive
    worker.on('message', (reply: SpectralReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiter?.reject(new ParityError('internal', `spectral worker: ${reply.error}`));
      else waiter?.resolve(reply.distances);
    });
    worker.on('error', (error) => this.fail(worker, `the spectral worker crashed: ${error.message}`));
    worker.on('exit', (code) => this.fail(worker, `the spectral worker exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private fail(worker: Worker, reason: string): void {
    if (this.worker !== worker) return; // closed on purpose
    this.worker = undefined;
    this.failure ??= reason;
    for (const waiter of this.waiting.values()) waiter.reject(new ParityError('internal', reason));
    this.waiting.clear();
  }
}

/**
 * 64 MiB: a pair of ~5.8 min mono takes at 24 kHz (the studio's and the CLI's usual comparisons) goes to
 * the worker; an import of two long WAVs is measured on its own thread rather than copied once more (the
 * copy made a 2 × 50 MB 16-bit import peak at 4.8× the files instead of 2.6×).
 */
const STAGING_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Copies of a job's takes on SharedArrayBuffers. The buffer of a job's first signals is kept for the next
 * job: filling pages already mapped costs a fraction of a fresh buffer's (measured: 13 ms for a fresh
 * 2 × 60 s pair under load).
 */
class Staging {
  private buffer = new SharedArrayBuffer(0);
  private copies = new Map<Float32Array, Float32Array>();

  /** Forgets the previous job's copies; its buffer is reused. */
  reset(): this {
    this.copies = new Map();
    return this;
  }

  /** Bytes `share` would copy for these pairs. */
  bytesToShare(pairs: readonly SpectralPair[]): number {
    return this.fresh(pairs).reduce((n, signal) => n + signal.byteLength, 0);
  }

  private fresh(pairs: readonly SpectralPair[]): Float32Array[] {
    return [...new Set(pairs.flatMap((p) => [p.a.signal, p.b.signal]))].filter(
      (signal) => !(signal.buffer instanceof SharedArrayBuffer) && !this.copies.has(signal),
    );
  }

  /** The pairs with each signal copied once onto a shared buffer (ones already shared are kept). */
  share(pairs: readonly SpectralPair[]): SpectralPair[] {
    const fresh = this.fresh(pairs);
    const bytes = fresh.reduce((n, signal) => n + signal.byteLength, 0);
    // A job's later signals (none in compareSignals: the aligned pair reads the same takes) get a buffer of their own.
    let buffer = this.buffer;
    if (this.copies.size > 0 || buffer.byteLength < bytes) buffer = new SharedArrayBuffer(bytes);
    if (this.copies.size === 0) this.buffer = buffer;
    let offset = 0;
    for (const signal of fresh) {
      const copy = new Float32Array(buffer, offset, signal.length);
      copy.set(signal);
      this.copies.set(signal, copy);
      offset += signal.byteLength;
    }
    const shared = (signal: Float32Array) => this.copies.get(signal) ?? signal;
    return pairs.map(({ a, b, length }) => ({
      a: { signal: shared(a.signal), start: a.start },
      b: { signal: shared(b.signal), start: b.start },
      length,
    }));
  }
}

/** Built beside this file in dist/; from source (tsx, vitest) the tsc output in dist/, as engineWorkerUrl. */
function spectralWorkerUrl(): URL {
  const here = import.meta.url;
  const url = here.endsWith('.ts')
    ? new URL('../../../dist/electron/host/spectral/spectral-worker.js', here)
    : new URL('./spectral-worker.js', here);
  if (!existsSync(fileURLToPath(url))) {
    throw new ParityError(
      'internal',
      `the spectral worker is not built: ${fileURLToPath(url)} is missing; run \`npm run build\``,
    );
  }
  return url;
}
