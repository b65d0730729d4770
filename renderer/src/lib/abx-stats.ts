/**
 * ABX statistics. Under the null hypothesis the listener guesses, so the number of correct answers in
 * n trials is Binomial(n, 1/2); the one-sided p-value is P(X ≥ correct) = Σ_{k ≥ correct} C(n, k) / 2^n.
 */
export function binomialPGuess(correct: number, trials: number): number {
  if (trials === 0) return 1;
  if (correct <= 0) return 1;
  if (correct > trials) return 0;
  // Log space so 1000 trials do not overflow C(n, k).
  let logC = 0; // log C(n, 0)
  let sum = 0;
  const log2n = trials * Math.LN2;
  for (let k = 0; k <= trials; k++) {
    if (k > 0) logC += Math.log((trials - k + 1) / k);
    if (k >= correct) sum += Math.exp(logC - log2n);
  }
  return Math.min(1, sum);
}

/**
 * X for trial `index` (0-based) of a session drawn from `seed` (mulberry32): the same seed gives the
 * same sequence, so a saved session can be checked; the seed itself comes from crypto.getRandomValues.
 */
export function abxTake(seed: number, index: number): 'A' | 'B' {
  let t = (seed + Math.imul(index + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  return r < 0.5 ? 'A' : 'B';
}

export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
