import type { TimeView } from '../../electron/common/report/figures/draw-overlay.js';

/** The shortest span a zoom reaches: 10 ms, a few hundred samples. */
const MIN_SPAN = 0.01;

/** `view` zoomed by `factor` (< 1 zooms in) around `centreSec`, kept inside [0, duration]. */
export function zoomView(view: TimeView, factor: number, centreSec: number, duration: number): TimeView {
  const span = Math.min(duration, Math.max(MIN_SPAN, (view.toSec - view.fromSec) * factor));
  const ratio = (centreSec - view.fromSec) / (view.toSec - view.fromSec || 1);
  return clampView(centreSec - ratio * span, span, duration);
}

/** `view` moved by `deltaSec`, kept inside [0, duration]. */
export function panView(view: TimeView, deltaSec: number, duration: number): TimeView {
  return clampView(view.fromSec + deltaSec, view.toSec - view.fromSec, duration);
}

function clampView(from: number, span: number, duration: number): TimeView {
  const start = Math.max(0, Math.min(duration - span, from));
  return { fromSec: start, toSec: start + span };
}
