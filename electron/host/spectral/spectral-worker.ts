import { parentPort } from 'node:worker_threads';
import { initFft } from '../../common/analysis/fft.js';
import { type SpectralPair, spectralDistances } from '../../common/analysis/spectral.js';
import type { SpectralReply, SpectralRequest } from './spectral-protocol.js';

// The spectral distances of compareSignals, on a thread of their own (spectral-thread.ts starts it).
const port = parentPort;
if (!port) throw new Error('spectral-worker.js must run in a worker thread');

port.on('message', (request: SpectralRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer({ id, pairs, sampleRate, cacheBytes }: SpectralRequest): Promise<SpectralReply> {
  try {
    await initFft();
    return { id, distances: spectralDistances(pairs as SpectralPair[], sampleRate, cacheBytes) };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}
