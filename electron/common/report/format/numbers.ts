/** How a terminal or report.md shows ±Infinity, as the studio does ("−∞ dB"); report.json keeps "-Infinity". */
export function nonFinite(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? '∞' : '\u2212∞';
}

/** Number formatting for humans: fixed digits; ±Infinity as ∞ / −∞ (U+2212), NaN as NaN. */
export function num(value: number, digits: number, unit = ''): string {
  const text = Number.isFinite(value) ? value.toFixed(digits) : nonFinite(value);
  return unit ? `${text} ${unit}` : text;
}

/** Signed, for differences: "+1.20" / "-1.20". */
export function signed(value: number, digits: number, unit = ''): string {
  const text = Number.isFinite(value) && value > 0 ? `+${value.toFixed(digits)}` : num(value, digits);
  return unit ? `${text} ${unit}` : text;
}
