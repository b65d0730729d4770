import { parentPort } from 'node:worker_threads';
import { initFft } from '../../common/analysis/fft.js';
import { type SpectralPair, SpectralSession } from '../../common/analysis/spectral.js';
import type { SpectralReply, SpectralRequest } from './spectral-protocol.js';

// The spectral distances of compareSignals, on a thread of their own (spectral-thread.ts starts it).
const port = parentPort;
if (!port) throw new Error('spectral-worker.js must run in a worker thread');

/** Each job's session, or the message of the first error it met (answered at its `distances`). */
const jobs = new Map<number, SpectralSession | string>();

// Every handler awaits the same initFft promise first, so the messages are handled in the order they came.
port.on('message', (request: SpectralRequest) => {
  void handle(request).then((reply) => reply && port.postMessage(reply));
});

async function handle(request: SpectralRequest): Promise<SpectralReply | undefined> {
  const { id } = request;
  try {
    await initFft();
    const job = jobs.get(id);
    if (request.kind === 'add') {
      if (typeof job === 'string') return undefined;
      const session = job ?? new SpectralSession(request.sampleRate, request.cacheBytes);
      jobs.set(id, session);
      session.add(request.pairs as SpectralPair[]);
      return undefined;
    }
    jobs.delete(id);
    if (typeof job === 'string') return { id, error: job };
    return { id, distances: job ? job.distances() : [] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (request.kind === 'add') {
      jobs.set(id, message);
      return undefined;
    }
    return { id, error: message };
  }
}
