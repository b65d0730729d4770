/**
 * A case's number in the sweep tables (Markdown and HTML): '—' when the case has none, the words for a
 * value that is not a number (a ΔLU of two takes below the loudness gate is −∞ − −∞), else fixed digits.
 */
export function sweepNumber(v: number | null, digits: number): string {
  if (v === null) return '—';
  if (Number.isNaN(v)) return 'not measured';
  if (!Number.isFinite(v)) return v > 0 ? '+∞' : '−∞';
  return v.toFixed(digits);
}
