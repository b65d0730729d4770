import { Metrics } from '../../../electron/common/report/metrics.js';

/** Metrics that parse, with no meaning: every number 0, every boolean false, sample rate 8000 (for tests whose report values do not matter). */
export function zeroMetrics(shape: Record<string, unknown> = Metrics.shape): Record<string, unknown> {
  const booleans = new Set(['bitIdentical', 'lagReliable']);
  return Object.fromEntries(
    Object.keys(shape)
      // metrics.audio is optional (reports written before it): left out, as those reports have it.
      .filter((k) => k !== 'audio')
      .map((k) => [k, booleans.has(k) ? false : k === 'aligned' ? zeroMetrics(Metrics.shape.aligned.shape) : k === 'sampleRate' ? 8000 : 0]),
  );
}
