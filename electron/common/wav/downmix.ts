import type { DecodedWav } from './decode-wav.js';

export interface Downmix {
  signal: Float32Array;
  /** The rule, as recorded in the report's sources (e.g. "mean of 2 channels (L+R)/2"). */
  rule: string;
}

/**
 * Mono for waveform comparison: the single channel as is, else the arithmetic mean of all channels
 * (no pan law, no weighting), accumulated in float64 and rounded once to float32.
 */
export function downmixToMono(decoded: Pick<DecodedWav, 'channels'>): Downmix {
  const { channels } = decoded;
  if (channels.length === 1) return { signal: channels[0], rule: 'mono (single channel, unchanged)' };
  const n = channels.length;
  const length = channels[0].length;
  const signal = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (let c = 0; c < n; c++) sum += channels[c][i];
    signal[i] = sum / n;
  }
  const rule = n === 2 ? 'mean of 2 channels (L+R)/2' : `mean of ${n} channels (sum/${n})`;
  return { signal, rule };
}
