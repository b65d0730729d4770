/** A dot of the sweep scatter as the keys see it: its place in plot units (y grows downwards). */
export interface KeyDot {
  x: number;
  y: number;
}

const DIRECTIONS: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** Off-axis distance counts this many times the on-axis one, so an arrow keeps to its line before it strays. */
const OFF_AXIS_WEIGHT = 2;

/** Whether dot i comes before dot j in reading order: left to right, then top to bottom, then drawing order (dots sharing a place). */
function before(dots: readonly KeyDot[], i: number, j: number): boolean {
  return (dots[i].x - dots[j].x || dots[i].y - dots[j].y || i - j) < 0;
}

/** The first (or last) dot in reading order: one pass, no sort (10,000 dots at every key press). */
function extreme(dots: readonly KeyDot[], last: boolean): number {
  let best = 0;
  for (let i = 1; i < dots.length; i++) if (before(dots, i, best) !== last) best = i;
  return best;
}

/**
 * The dot a key moves to on the scatter (spatial navigation, as a keyboard user reads a chart): an arrow
 * goes to the nearest dot that way, on-axis distance plus twice the off-axis one; dots on one place are
 * stepped through in drawing order by Right/Left. Home/End: the first/last dot in reading order (left to
 * right, so Home is the lowest correlation). With no current dot, any of these keys starts at the first.
 * Undefined for other keys or no dots; the current dot when none lies that way (the key is still the chart's).
 */
export function scatterDotAfterKey(dots: readonly KeyDot[], current: number | undefined, key: string): number | undefined {
  if (dots.length === 0) return undefined;
  if (key === 'End') return extreme(dots, true);
  if (key === 'Home') return extreme(dots, false);
  const dir = DIRECTIONS[key];
  if (!dir) return undefined;
  if (current === undefined) return extreme(dots, false);
  const from = dots[current];
  let best = current;
  let bestScore = Infinity;
  for (let i = 0; i < dots.length; i++) {
    if (i === current) continue;
    const dx = dots[i].x - from.x;
    const dy = dots[i].y - from.y;
    let score: number;
    if (dx === 0 && dy === 0) {
      // Same place: only Right/Left step through them, the nearest in drawing order first.
      if (dir[1] !== 0 || Math.sign(i - current) !== dir[0]) continue;
      score = Math.abs(i - current) * Number.EPSILON;
    } else {
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue;
      score = along + OFF_AXIS_WEIGHT * Math.abs(dx * dir[1] + dy * dir[0]);
    }
    if (score < bestScore) [best, bestScore] = [i, score];
  }
  return best;
}
