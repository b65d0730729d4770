/**
 * The time window a drawing shows: seconds from `start` to `end` across its width. Every studio lane
 * and every report figure on a time axis draws for one of these.
 */
export interface Viewport {
  start: number;
  end: number;
}

export const timeToX = (vp: Viewport, width: number, t: number): number => ((t - vp.start) / (vp.end - vp.start)) * width;
export const xToTime = (vp: Viewport, width: number, x: number): number => vp.start + (x / width) * (vp.end - vp.start);
