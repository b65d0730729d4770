/** Number formatting for humans: fixed digits, non-finite values spelled as in report.json. */
export function num(value: number, digits: number, unit = ''): string {
  const text = Number.isFinite(value) ? value.toFixed(digits) : String(value);
  return unit ? `${text} ${unit}` : text;
}

/** Signed, for differences: "+1.20" / "-1.20". */
export function signed(value: number, digits: number, unit = ''): string {
  const text = Number.isFinite(value) && value > 0 ? `+${value.toFixed(digits)}` : num(value, digits);
  return unit ? `${text} ${unit}` : text;
}
