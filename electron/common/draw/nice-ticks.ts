/** Round numbers for an axis: a step of 1, 2 or 5 × 10^k and the ticks it puts on [lo, hi]. */
export interface NiceAxis {
  /** The axis ends, a little past the data so no point sits on the frame edge. */
  lo: number;
  hi: number;
  step: number;
  ticks: number[];
}

/** The smallest 1/2/5 × 10^k step that puts at most `maxTicks` intervals on `span`. */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, maxTicks);
  const decade = 10 ** Math.floor(Math.log10(raw));
  return decade * ([1, 2, 5, 10].find((m) => m * decade >= raw - 1e-12) ?? 10);
}

/**
 * An axis over the data's [min, max] with about `maxTicks` round ticks: its ends lie 4 % of the span
 * past the data (so no point sits on the frame edge, and a correlation axis does not run on to 1.2),
 * the ticks are the multiples of the step between them.
 */
export function niceAxis(min: number, max: number, maxTicks = 5): NiceAxis {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return niceAxis(0, 1, maxTicks);
  if (min === max) return niceAxis(min - (Math.abs(min) || 1) * 0.01, max + (Math.abs(max) || 1) * 0.01, maxTicks);
  const pad = (max - min) * 0.04;
  const [lo, hi] = [min - pad, max + pad];
  const step = niceStep(max - min, maxTicks);
  const ticks: number[] = [];
  for (let i = Math.ceil(lo / step); i * step <= hi; i++) ticks.push(+(i * step).toPrecision(12));
  return { lo, hi, step, ticks };
}

/** A tick's label with the digits its step needs (0.001 → 3 decimals, 20 → none). */
export function tickLabel(v: number, step: number): string {
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const text = v.toFixed(Math.min(digits, 8));
  return text.startsWith('-') && Number(text) !== 0 ? `−${text.slice(1)}` : text.replace(/^-/, '');
}
