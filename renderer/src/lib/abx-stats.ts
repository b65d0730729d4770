/**
 * ABX statistics. Under the null hypothesis the listener guesses, so the number of correct answers in
 * n trials is Binomial(n, 1/2); the one-sided p-value is P(X ≥ correct) = Σ_{k ≥ correct} C(n, k) / 2^n,
 * computed exactly with integers (BigInt): 1 of 5 is 31/32 = 0.96875, not a float near it.
 */
export interface ExactP {
  /** p = num / den in lowest terms; den is a power of two. */
  num: bigint;
  den: bigint;
}

export function binomialTail(correct: number, trials: number): ExactP {
  if (trials <= 0 || correct <= 0) return { num: 1n, den: 1n };
  if (correct > trials) return { num: 0n, den: 1n };
  let c = 1n; // C(n, 0)
  let sum = 0n;
  const n = BigInt(trials);
  for (let k = 0n; k <= n; k++) {
    if (k > 0n) c = (c * (n - k + 1n)) / k;
    if (k >= BigInt(correct)) sum += c;
  }
  let den = 1n << n;
  while (sum > 0n && sum % 2n === 0n && den > 1n) {
    sum /= 2n;
    den /= 2n;
  }
  return { num: sum, den };
}

const bitLength = (v: bigint) => v.toString(2).length;

/** The exact fraction as the nearest double, also where 2^n itself would overflow a double (n > 1023). */
export function toDouble({ num, den }: ExactP): number {
  if (num === 0n) return 0;
  const k = Math.max(0, bitLength(den) - bitLength(num));
  return Number((num << BigInt(k + 53)) / den) * 2 ** -(k + 53);
}

export function binomialPGuess(correct: number, trials: number): number {
  return toDouble(binomialTail(correct, trials));
}

/** num / den rounded half-up to `digits` significant digits: [integer digits, power of ten of the first]. */
function roundSignificant({ num, den }: ExactP, digits: number): { mantissa: bigint; exp10: number } {
  // A first guess from the bit lengths (a double would underflow below 2^-1074); the loop corrects it.
  let exp10 = Math.floor((bitLength(num) - bitLength(den)) * Math.log10(2));
  for (;;) {
    const shift = digits - 1 - exp10;
    const scaledNum = shift >= 0 ? num * 10n ** BigInt(shift) : num;
    const scaledDen = shift >= 0 ? den : den * 10n ** BigInt(-shift);
    const mantissa = (2n * scaledNum + scaledDen) / (2n * scaledDen);
    if (mantissa >= 10n ** BigInt(digits)) exp10++;
    else if (mantissa < 10n ** BigInt(digits - 1)) exp10--;
    else return { mantissa, exp10 };
  }
}

/**
 * p as shown after "p(guessing)": the exact decimal when it has at most 5 significant digits
 * ("= 31/32 = 0.96875"), else rounded half-up to 4 ("= 2517/65536 ≈ 0.03841"); the fraction while its
 * denominator stays readable (≤ 2^20); scientific notation under 0.0001 ("≈ 7.889e-31").
 */
export function formatP(p: ExactP): string {
  if (p.num === 0n || p.num === p.den) return `= ${p.num === 0n ? 0 : 1}`;
  const m = bitLength(p.den) - 1; // den = 2^m, so p = num · 5^m / 10^m exactly
  const fraction = m <= 20 ? `= ${p.num}/${p.den} ` : '';
  const exact = (p.num * 5n ** BigInt(m)).toString();
  if (exact.length <= 5 && m - exact.length < 4) return `${fraction}= 0.${exact.padStart(m, '0')}`;
  const { mantissa, exp10 } = roundSignificant(p, 4);
  const t = mantissa.toString();
  // exp10 = 0 only when rounding carries up to 1 (p = 1 − 2^-20 ≈ 1.000).
  const decimal = exp10 < -4 ? `${t[0]}.${t.slice(1)}e${exp10}` : exp10 >= 0 ? `${t[0]}.${t.slice(1)}` : `0.${'0'.repeat(-exp10 - 1)}${t}`;
  return `${fraction}≈ ${decimal}`;
}

/** "= 31/32 = 0.96875" for 1 of 5 correct. */
export function pGuessText(correct: number, trials: number): string {
  return formatP(binomialTail(correct, trials));
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

/**
 * Above this |ΔLU| a listener can pick X by its level alone. 0.5 LU is the threshold: about half
 * the ~1 LU just-noticeable loudness change, so a blind test stays about the content.
 */
export const ABX_MAX_DELTA_LU = 0.5;

/** True when the takes' loudness differs audibly and Match loudness is off. */
export function levelGivesAway(deltaLU: number, matchLoudness: boolean): boolean {
  return !matchLoudness && Number.isFinite(deltaLU) && Math.abs(deltaLU) > ABX_MAX_DELTA_LU;
}
