import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpectralJob, SpectralRunner } from '../../common/analysis/compare.js';
import {
  type FrameDistances,
  framesOfPair,
  frameSize,
  type LoudestBins,
  SPECTRA_CACHE_BYTES,
  type SpectralDistances,
  type SpectralPair,
  SpectralSession,
  sumFrameDistances,
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
  private readonly waiting = new Map<number, Waiter>();

  /** The runner to pass as CompareOptions.spectral. */
  readonly run: SpectralRunner = (sampleRate, cacheBytes) =>
    this.job(sampleRate, cacheBytes ?? SPECTRA_CACHE_BYTES);

  /**
   * A job whose pairs' first frames (WORKER_FRAME_SHARE of them) are measured on the worker and the others
   * here: their first pass at each `add`, their second after compareSignals' other metrics. Takes over the
   * staging limit are measured here whole.
   */
  private job(sampleRate: number, cacheBytes: number): SpectralJob {
    const id = this.nextId++;
    const staging = this.open === 0 ? this.staging.reset() : new Staging();
    this.open++;
    let holdsStaging = true;
    /** The job no longer needs the staging buffer (said once, on whichever path the job ends). */
    const releaseStaging = () => {
      if (holdsStaging) this.open--;
      holdsStaging = false;
    };
    let here: SpectralSession | undefined;
    /** The worker measures frames [0, split) of every pair; undefined while it has no part. */
    let split: number | undefined;
    let workerCacheBytes = 0;
    return {
      add: (pairs) => {
        if (pairs.length === 0) return;
        if (!here) {
          if (staging.bytesToShare(pairs) > this.stagingLimitBytes) {
            releaseStaging();
            here = new SpectralSession(sampleRate, cacheBytes);
          } else {
            split = Math.round(WORKER_FRAME_SHARE * framesOfPair(pairs[0].length, frameSize(sampleRate)));
            workerCacheBytes = Math.round(cacheBytes * WORKER_FRAME_SHARE);
            here = new SpectralSession(sampleRate, cacheBytes - workerCacheBytes, {
              from: split,
              to: Infinity,
            });
          }
        }
        if (split !== undefined) {
          const message: SpectralRequest = {
            kind: 'add',
            id,
            pairs: staging.share(pairs),
            sampleRate,
            cacheBytes: workerCacheBytes,
            frames: { from: 0, to: split },
          };
          this.started().postMessage(message);
        }
        here.add(pairs);
      },
      distances: () => {
        const session = here;
        if (!session) {
          releaseStaging();
          return Promise.resolve([]);
        }
        const ended = () => {
          // Frees this thread's spectra arena on every path, a failed one included.
          session.close();
          releaseStaging();
        };
        if (split === undefined) {
          return new Promise<SpectralDistances[]>((resolve) => resolve(session.distances())).finally(ended);
        }
        return new Promise<SpectralDistances[]>((resolve, reject) => {
          const worker = this.started();
          const loudestHere = session.loudest();
          let framesHere: FrameDistances = [];
          this.waiting.set(id, {
            // This thread's frames are measured when the worker's loudest bins come, which is when this
            // thread next waits: after compareSignals' other metrics.
            loudest: (loudestThere) => {
              framesHere = session.frameDistances([loudestThere, loudestHere]);
            },
            frames: (framesThere) => resolve(sumFrameDistances([framesThere, framesHere])),
            reject,
          });
          worker.ref();
          worker.postMessage({ kind: 'measure', id, loudest: loudestHere } satisfies SpectralRequest);
        }).finally(ended);
      },
      cancel: () => {
        here?.close();
        releaseStaging();
        if (split !== undefined) this.worker?.postMessage({ kind: 'cancel', id } satisfies SpectralRequest);
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
      if (!waiter) return;
      try {
        if (reply.kind === 'loudest') return waiter.loudest(reply.loudest);
        if (reply.kind === 'error') throw new ParityError('internal', `spectral worker: ${reply.error}`);
        waiter.frames(reply.frames);
      } catch (error) {
        waiter.reject(error as Error);
      }
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
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

/** A job waiting for the worker's replies to its `measure` (spectral-protocol.ts). */
interface Waiter {
  loudest: (loudest: LoudestBins) => void;
  frames: (frames: FrameDistances) => void;
  reject: (error: Error) => void;
}

/**
 * The worker's share of each pair's frames; this thread measures the rest (the first pass at each `add`,
 * the second after compareSignals' other metrics: cross-correlation, sample sums, matched null, loudness,
 * levels). Chosen by measurement: the 60 s
 * bench pair with the shares interleaved in one process, 25 rounds, twice (load ~1.3): medians 0.6 → 135
 * and 137 ms, 0.7 → 121 and 124, 0.75 → 120 and 121, 0.8 → 126 and 126, 0.85 → 134 and 135, 0.9 → 143
 * and 142. The numbers do not depend on it.
 */
const WORKER_FRAME_SHARE = 0.75;

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
