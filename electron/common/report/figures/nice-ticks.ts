/** The 1-2-5 spacing at least `span / maxTicks` apart, and the decimals its multiples need. */
export function niceStep(span: number, maxTicks: number): { step: number; digits: number } {
  const raw = span / Math.max(1, maxTicks);
  if (!(raw > 0) || !Number.isFinite(raw)) return { step: 1, digits: 0 };
  const decade = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * decade).find((s) => s >= raw) ?? 10 * decade;
  return { step, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
}

/** Multiples of `step` inside [from, to]. */
export function ticksIn(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(from / step - 1e-9); k * step <= to + 1e-9 * step; k++) out.push(k * step);
  return out;
}
