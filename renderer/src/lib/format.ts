/** U+2212, the typographic minus: a hyphen-minus reads as a dash and is narrower than the digits. */
export const MINUS = '\u2212';

/** A metric for display: fixed digits, unit, the words for non-finite values, and a typographic minus. */
export function fmt(value: number | string | undefined, digits: number, unit = ''): string {
  if (value === undefined) return '—';
  const v = typeof value === 'string' ? Number(value) : value;
  if (Number.isNaN(v)) return 'n/a';
  if (v === Infinity) return `∞${unit}`;
  if (v === -Infinity) return `${MINUS}∞${unit}`;
  const text = v.toFixed(digits);
  // -0.04 to 1 digit is "-0.0": a sign on zero reads as a real negative value.
  if (/^-0(\.0*)?$/.test(text)) return `${text.slice(1)}${unit}`;
  return `${minusSigns(text)}${unit}`;
}

/**
 * A text's number signs as U+2212: a hyphen-minus before a digit that does not follow a letter, digit
 * or dot ("vs -0.02" → "vs −0.02"; "stale-feedback@2", "2-3" and "1e-7" keep theirs). For numbers that
 * arrive inside text, e.g. the report's divergence detail.
 */
export function minusSigns(text: string): string {
  return text.replace(/(^|[^\w.])-(?=\.?\d)/g, `$1${MINUS}`);
}

/** m:ss.mmm for positions on the timeline. */
export function fmtTime(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) sec = 0;
  const m = Math.floor(sec / 60);
  const s = sec - m * 60;
  return `${m}:${s.toFixed(3).padStart(6, '0')}`;
}

/** Decimals needed to write multiples of a chart's tick spacing exactly (0.25 → 2, 5 → 0), at most 10. */
function tickDigits(incr: number): number {
  let d = 0;
  while (d < 10 && Number.isFinite(incr) && Math.abs(Math.round(incr * 10 ** d) - incr * 10 ** d) > 1e-9 * 10 ** d) d++;
  return d;
}

/** A chart axis tick: the digits its spacing needs and the same minus as `fmt`. */
export function fmtTick(value: number | null, incr: number): string {
  return value === null ? '' : fmt(value, tickDigits(incr));
}
