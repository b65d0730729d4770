import type { Viewport } from '../../../electron/common/draw/viewport.js';

/**
 * Zoom and scroll of the one time window every lane draws (waveforms, difference, spectrograms,
 * loudness, steps, codes). Pure math, no store and no DOM. The window itself, and the x of a time in it,
 * are in electron/common/draw/viewport.ts, which the drawing functions of the studio and the report share.
 */
export type { Viewport };

/** At the deepest zoom one sample is this many px apart, so single samples are drawn as points. */
export const MAX_PX_PER_SAMPLE = 32;

/** The narrowest window: `width` px at MAX_PX_PER_SAMPLE px per sample (never wider than the take). */
export function minSpan(width: number, sampleRate: number, duration: number): number {
  if (!(sampleRate > 0)) return Math.min(duration, 1e-3);
  return Math.min(duration, Math.max(1, width) / (sampleRate * MAX_PX_PER_SAMPLE));
}

/** The window moved and sized to lie inside [0, duration] and be at least `least` seconds wide. */
export function clampViewport(vp: Viewport, duration: number, least: number): Viewport {
  if (!(duration > 0)) return { start: 0, end: 0 };
  const span = Math.min(duration, Math.max(least, vp.end - vp.start));
  const start = Math.min(Math.max(0, vp.start), duration - span);
  return { start, end: start + span };
}

export const fitViewport = (duration: number): Viewport => ({ start: 0, end: Math.max(0, duration) });

/** Zoom by `factor` (> 1 zooms in) keeping the time `anchor` at the same x. */
export function zoomAt(vp: Viewport, factor: number, anchor: number, duration: number, least: number): Viewport {
  const span = vp.end - vp.start;
  if (!(span > 0) || !(factor > 0)) return clampViewport(vp, duration, least);
  const next = Math.min(duration, Math.max(least, span / factor));
  const frac = Math.min(1, Math.max(0, (anchor - vp.start) / span));
  return clampViewport({ start: anchor - frac * next, end: anchor - frac * next + next }, duration, least);
}

/** Scroll by `seconds` (positive: later), the width unchanged. */
export function panBy(vp: Viewport, seconds: number, duration: number, least: number): Viewport {
  return clampViewport({ start: vp.start + seconds, end: vp.end + seconds }, duration, least);
}

/** A window of `span` seconds centred on `centre`. */
export function centredOn(centre: number, span: number, duration: number, least: number): Viewport {
  return clampViewport({ start: centre - span / 2, end: centre + span / 2 }, duration, least);
}

export const pxPerSec = (vp: Viewport, width: number): number => width / (vp.end - vp.start);

/**
 * The zoom slider's position 0..1 for a window of `span` s: log-scaled between the whole take (0) and
 * the narrowest window (1), so every part of its travel changes the zoom.
 */
export function sliderFromSpan(span: number, duration: number, least: number): number {
  if (!(duration > least) || !(span > 0)) return 0;
  return Math.min(1, Math.max(0, Math.log(duration / span) / Math.log(duration / least)));
}

export function spanFromSlider(position: number, duration: number, least: number): number {
  if (!(duration > least)) return duration;
  return duration * (least / duration) ** Math.min(1, Math.max(0, position));
}
