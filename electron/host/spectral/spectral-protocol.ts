import type { SpectralDistances, SpectralPair } from '../../common/analysis/spectral.js';

/**
 * A comparison's spectral job (compare.ts's SpectralJob) as messages: `add` its pairs (the worker runs
 * their first pass as they arrive), then `distances`, which the worker answers. Signals are on
 * SharedArrayBuffers: the worker reads the caller's takes, nothing is copied across.
 */
export type SpectralRequest =
  | {
      kind: 'add';
      id: number;
      pairs: readonly SpectralPair[];
      sampleRate: number;
      cacheBytes: number | undefined;
    }
  | { kind: 'distances'; id: number };

export type SpectralReply = { id: number; distances: SpectralDistances[] } | { id: number; error: string };
