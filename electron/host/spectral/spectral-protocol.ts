import type {
  FrameDistances,
  FrameRange,
  LoudestBins,
  SpectralPair,
} from '../../common/analysis/spectral.js';

/**
 * A comparison's spectral job (compare.ts's SpectralJob) as messages, the worker measuring the frames
 * `frames` of every pair and the calling thread the others: `add` its pairs (the worker runs the first pass
 * of its frames as they arrive), then `measure` with the calling thread's loudest bins; the worker answers
 * with its own loudest bins at once (both threads then know each pair's floor), then with its frames'
 * distances; or `cancel` when the comparison failed after an `add`. Signals are on SharedArrayBuffers: the
 * worker reads the caller's takes, nothing is copied across.
 */
export type SpectralRequest =
  | {
      kind: 'add';
      id: number;
      pairs: readonly SpectralPair[];
      sampleRate: number;
      cacheBytes: number;
      frames: FrameRange;
    }
  | { kind: 'measure'; id: number; loudest: LoudestBins }
  | { kind: 'cancel'; id: number };

export type SpectralReply =
  | { id: number; kind: 'loudest'; loudest: LoudestBins }
  | { id: number; kind: 'frames'; frames: FrameDistances }
  | { id: number; kind: 'error'; error: string };
