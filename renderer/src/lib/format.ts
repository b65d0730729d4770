/** A metric for display: fixed digits, unit, and the words for non-finite values. */
export function fmt(value: number | string | undefined, digits: number, unit = ''): string {
  if (value === undefined) return '—';
  const v = typeof value === 'string' ? Number(value) : value;
  if (Number.isNaN(v)) return 'n/a';
  if (v === Infinity) return `∞${unit}`;
  if (v === -Infinity) return `−∞${unit}`;
  // -0.04 to 1 digit is "-0.0": a sign on zero reads as a real negative value.
  const text = v.toFixed(digits);
  return `${/^-0(\.0*)?$/.test(text) ? text.slice(1) : text}${unit}`;
}

/** m:ss.mmm for positions on the timeline. */
export function fmtTime(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) sec = 0;
  const m = Math.floor(sec / 60);
  const s = sec - m * 60;
  return `${m}:${s.toFixed(3).padStart(6, '0')}`;
}
