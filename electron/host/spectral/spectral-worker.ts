import { parentPort } from 'node:worker_threads';
import { initFft } from '../../common/analysis/fft.js';
import { type SpectralPair, SpectralSession } from '../../common/analysis/spectral.js';
import type { SpectralReply, SpectralRequest } from './spectral-protocol.js';

// The worker's frames of compareSignals' spectral distances (spectral-thread.ts starts it).
const port = parentPort;
if (!port) throw new Error('spectral-worker.js must run in a worker thread');

/** Each job's session, or the message of the first error it met (answered at its `measure`). */
const jobs = new Map<number, SpectralSession | string>();

const reply = (message: SpectralReply) => port.postMessage(message);

// Every handler awaits the same initFft promise first, so the messages are handled in the order they came.
port.on('message', (request: SpectralRequest) => {
  void handle(request);
});

async function handle(request: SpectralRequest): Promise<void> {
  const { id } = request;
  try {
    await initFft();
    const job = jobs.get(id);
    if (request.kind === 'add') {
      if (typeof job === 'string') return;
      const session = job ?? new SpectralSession(request.sampleRate, request.cacheBytes, request.frames);
      jobs.set(id, session);
      session.add(request.pairs as SpectralPair[]);
      return;
    }
    jobs.delete(id);
    if (request.kind === 'cancel') {
      if (typeof job !== 'string') job?.close();
      return;
    }
    if (typeof job === 'string') return reply({ id, kind: 'error', error: job });
    if (!job) return reply({ id, kind: 'error', error: `no spectral job ${id} was added` });
    try {
      const loudest = job.loudest();
      reply({ id, kind: 'loudest', loudest });
      reply({ id, kind: 'frames', frames: job.frameDistances([loudest, request.loudest]) });
    } finally {
      job.close(); // frees this thread's spectra arena, a failed second pass included
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (request.kind === 'add') jobs.set(id, message);
    else if (request.kind === 'measure') reply({ id, kind: 'error', error: message });
  }
}
