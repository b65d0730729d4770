import { unmeasurableWords, type AudioCheck } from '../audio-check.js';

/** A number formatter as the terminal, report.md and the studio have them: (value, digits, unit). */
export type Format<V> = (value: V, digits: number, unit?: string) => string;

/**
 * The formatters of one comparison's metrics when a take is degenerate (audio-check.ts), so that no row
 * shows a value that is only an artefact of it:
 * - `compared`, for a metric of A against B (correlation, lag, null depth, SNR, gain, spectral distances):
 *   any value that is not finite reads why ("not measurable: A is digital silence"), since a null depth
 *   of −∞ over two silent takes, or an SNR of ∞, says nothing about a match;
 * - `perTake`, for a value of one take (peak, RMS, loudness), where −∞ is the truth for silence: only NaN does.
 * Without a degenerate take both are `format` itself. `unmeasured` says whether `compared` writes why for a
 * value (a caveat after a number is then left out).
 */
export function degenerateFormats<V>(
  check: AudioCheck | undefined,
  format: Format<V>,
  toNumber: (value: V) => number,
): { compared: Format<V>; perTake: Format<V>; unmeasured: (value: V) => boolean } {
  const why = unmeasurableWords(check);
  if (!why) return { compared: format, perTake: format, unmeasured: (value) => Number.isNaN(toNumber(value)) };
  return {
    unmeasured: (value) => !Number.isFinite(toNumber(value)),
    compared: (value, digits, unit) => (Number.isFinite(toNumber(value)) ? format(value, digits, unit) : why),
    perTake: (value, digits, unit) => (Number.isNaN(toNumber(value)) ? why : format(value, digits, unit)),
  };
}
