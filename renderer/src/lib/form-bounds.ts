import { Sampling, Seed } from '../../../electron/common/api/primitives.js';

/** What a number field of the form accepts. */
export interface FieldBounds {
  /** The field's name in messages, e.g. "Temperature". */
  label: string;
  min: number;
  max: number;
  integer: boolean;
}

/**
 * The form's bounds: the maxima are read from the host's own schemas (common/api/primitives.ts), so the
 * form can never accept what the host refuses. The host takes temperature and top-p above 0 (exclusive);
 * the form's lowest is one step of the field (0.05).
 */
export const FORM_BOUNDS = {
  temperature: { label: 'Temperature', min: 0.05, max: Sampling.shape.temperature.unwrap().maxValue ?? 10, integer: false },
  topK: { label: 'Top-k', min: 0, max: Sampling.shape.topK.unwrap().maxValue ?? Number.MAX_SAFE_INTEGER, integer: true },
  topP: { label: 'Top-p', min: 0.05, max: Sampling.shape.topP.unwrap().maxValue ?? 1, integer: false },
  seed: { label: 'Seed', min: 0, max: Seed.maxValue ?? 2 ** 32 - 1, integer: true },
} satisfies Record<string, FieldBounds>;

export type FieldRead = { ok: true; value: number } | { ok: false; issue: string; nearest?: number };

/**
 * A field's text as a value the host accepts, or why not and the nearest value it would accept (set
 * when the field is left). Empty or unreadable text has no nearest value: the last good one stays.
 */
export function readField(raw: string, bounds: FieldBounds): FieldRead {
  const text = raw.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) return { ok: false, issue: `${bounds.label} needs a number from ${rangeText(bounds)}.` };
  if (value > bounds.max) return { ok: false, issue: `${bounds.label} is at most ${bounds.max}; it will be set to ${bounds.max}.`, nearest: bounds.max };
  if (value < bounds.min) return { ok: false, issue: `${bounds.label} is at least ${bounds.min}; it will be set to ${bounds.min}.`, nearest: bounds.min };
  if (bounds.integer && !Number.isInteger(value)) {
    const nearest = Math.floor(value);
    return { ok: false, issue: `${bounds.label} is a whole number; it will be set to ${nearest}.`, nearest };
  }
  return { ok: true, value };
}

/** "0.05–10", or "0 or more" when the top is only the largest safe integer. */
export function rangeText(bounds: FieldBounds): string {
  return bounds.max >= Number.MAX_SAFE_INTEGER ? `${bounds.min} or more` : `${bounds.min}–${bounds.max}`;
}
