import type { Viewport } from './viewport.js';

/** One tick of the time ruler: its time, x in px and label (in the ruler's unit). */
export interface TimeTick {
  t: number;
  x: number;
  label: string;
}

export type TimeUnit = 's' | 'ms' | 'samples';

// 1-2-5 steps, seconds.
const STEPS = [1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];

/**
 * Ticks at least `minGapPx` apart. The unit follows the zoom: seconds while ticks are ≥ 0.1 s apart,
 * milliseconds down to 1 ms, and sample indices (ticks on whole samples) once a tick spans fewer than
 * 50 samples, where a time label would hide which sample is which.
 */
export function timeTicks(vp: Viewport, width: number, sampleRate: number, minGapPx = 80): { unit: TimeUnit; ticks: TimeTick[] } {
  const span = vp.end - vp.start;
  if (!(span > 0) || !(width > 0)) return { unit: 's', ticks: [] };
  const least = (span * minGapPx) / width;
  const samplesPerTick = least * sampleRate;
  if (sampleRate > 0 && samplesPerTick < 50) {
    const stepSamples = [1, 2, 5, 10, 20, 50].find((n) => n >= samplesPerTick) ?? 50;
    const first = Math.ceil((vp.start * sampleRate) / stepSamples) * stepSamples;
    const ticks: TimeTick[] = [];
    for (let n = first; n / sampleRate <= vp.end; n += stepSamples) ticks.push({ t: n / sampleRate, x: ((n / sampleRate - vp.start) / span) * width, label: String(n) });
    return { unit: 'samples', ticks };
  }
  const step = STEPS.find((s) => s >= least) ?? STEPS[STEPS.length - 1];
  const unit: TimeUnit = step >= 0.1 ? 's' : 'ms';
  const decimals = unit === 's' ? Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) : Math.max(0, -Math.floor(Math.log10(step * 1000) + 1e-9));
  const ticks: TimeTick[] = [];
  const first = Math.ceil(vp.start / step - 1e-9);
  for (let k = first; k * step <= vp.end + 1e-12; k++) {
    const t = k * step;
    ticks.push({ t, x: ((t - vp.start) / span) * width, label: unit === 's' ? t.toFixed(decimals) : (t * 1000).toFixed(decimals) });
  }
  return { unit, ticks };
}
