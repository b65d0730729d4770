import { BundleError } from '../../common/errors.js';

/**
 * A sampled code outside 0..size−1 would read another codebook's embedding row (or a special row) and
 * index the vocoder's table out of range: silently wrong audio. It is refused instead, naming the step.
 * The engine masks every id past a codebook before sampling, so only the bundle's own logits (all −∞ or
 * NaN) can lead here: a bundle error, exit 2.
 */
export function refuseOutOfRangeCode(step: number, codebook: number, code: number, size: number): void {
  if (Number.isInteger(code) && code >= 0 && code < size) return;
  const who = codebook === 0 ? 'the talker' : 'the code predictor';
  throw new BundleError(
    `step ${step}: ${who} gave code ${code} for codebook ${codebook}, outside 0..${size - 1} (codebook size ${size}); refused before it reaches the embeddings and the vocoder`,
    `step ${step}`,
  );
}
