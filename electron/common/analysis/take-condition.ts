import { NEAR_SILENT_PEAK, type AudioCheck, type TakeCheck } from '../report/audio-check.js';

/** One pass over a take: its condition (report/audio-check.ts says what each means). */
export function takeCheck(signal: Float32Array): TakeCheck {
  let nonFinite = 0;
  let peak = 0;
  let constant = true;
  const first = signal.length > 0 ? signal[0] : 0;
  for (let i = 0; i < signal.length; i++) {
    const v = signal[i];
    if (!Number.isFinite(v)) {
      nonFinite++;
      continue;
    }
    const m = Math.abs(v);
    if (m > peak) peak = m;
    // -0 and +0 are the same silence.
    if (v !== first) constant = false;
  }
  if (nonFinite > 0) return { condition: 'non-finite', nonFinite, peak };
  if (peak === 0) return { condition: 'digital-silence', nonFinite, peak };
  if (constant) return { condition: 'constant', nonFinite, peak, value: first };
  return { condition: peak < NEAR_SILENT_PEAK ? 'near-silent' : 'audible', nonFinite, peak };
}

export function audioCheck(a: Float32Array, b: Float32Array): AudioCheck {
  return { a: takeCheck(a), b: takeCheck(b) };
}
