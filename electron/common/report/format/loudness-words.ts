import { hasGatingBlock } from '../../analysis/loudness.js';
import type { Metrics } from '../metrics.js';
import { signed } from './numbers.js';

/**
 * Why an integrated loudness reads −∞, so it is not taken for digital silence: BS.1770 measures gated
 * 400 ms blocks, and a take shorter than one block has none. Empty for any other value.
 */
export function minusInfinityReason(lufs: number, length: number, sampleRate: number): string {
  if (lufs !== -Infinity) return '';
  return hasGatingBlock(length, sampleRate) ? ' (every 400 ms block under the −70 LUFS gate)' : ' (shorter than one 400 ms block)';
}

/** B − A in LU; "not measured" naming the side(s) with no gated loudness rather than NaN or ±∞ LU. */
export function loudnessDeltaText(m: Metrics, digits: number): string {
  const unmeasured = [m.loudnessA === -Infinity ? 'A' : '', m.loudnessB === -Infinity ? 'B' : ''].filter(Boolean);
  if (unmeasured.length === 0) return signed(m.loudnessDeltaLU, digits, 'LU');
  return `not measured: ${unmeasured.join(' and ')} ${unmeasured.length === 1 ? 'has' : 'have'} no gated loudness`;
}
