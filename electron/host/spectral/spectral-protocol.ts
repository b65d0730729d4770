import type { SpectralDistances, SpectralPair } from '../../common/analysis/spectral.js';

/** Signals on SharedArrayBuffers: the worker reads the caller's takes, nothing is copied across. */
export interface SpectralRequest {
  id: number;
  pairs: readonly SpectralPair[];
  sampleRate: number;
  cacheBytes: number | undefined;
}

export type SpectralReply = { id: number; distances: SpectralDistances[] } | { id: number; error: string };
