import { minSpan } from '../../lib/viewport.js';
import { audioSelectors } from '../comparison/audio-selectors.js';
import { comparisonSelectors } from '../comparison/comparison-selectors.js';
import type { StudioState } from '../studio-store.js';

export const timelineSelectors = {
  /**
   * The shared timeline's length: the longer take, or for a comparison of traces without audio the
   * steps' frames (frame N from step N, 1 / frameRate s each).
   */
  duration: (s: StudioState): number => {
    const audio = audioSelectors.duration(s);
    if (audio > 0) return audio;
    const rate = comparisonSelectors.frameRate(s);
    const steps = comparisonSelectors.divergence(s)?.steps?.length ?? 0;
    return rate > 0 ? steps / rate : 0;
  },
  /** The narrowest window the lanes may show (single samples at full zoom; a tenth of a frame without audio). */
  minSpan: (s: StudioState): number => {
    const duration = timelineSelectors.duration(s);
    const rate = audioSelectors.sampleRate(s);
    if (rate > 0) return minSpan(s.laneWidth, rate, duration);
    const frameRate = comparisonSelectors.frameRate(s);
    return Math.min(duration, frameRate > 0 ? 0.1 / frameRate : duration);
  },
};
