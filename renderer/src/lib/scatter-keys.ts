/** A dot of the sweep scatter as the keys see it: its place in plot units (y grows downwards). */
export interface KeyDot {
  x: number;
  y: number;
}

const DIRECTIONS: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** Off-axis distance counts this many times the on-axis one, so an arrow keeps to its line before it strays. */
const OFF_AXIS_WEIGHT = 2;

/** Dot indices in reading order: left to right, then top to bottom, then drawing order (dots sharing a place). */
function readingOrder(dots: readonly KeyDot[]): number[] {
  return dots.map((_, i) => i).sort((i, j) => dots[i].x - dots[j].x || dots[i].y - dots[j].y || i - j);
}

/**
 * The dot a key moves to on the scatter (spatial navigation, as a keyboard user reads a chart): an arrow
 * goes to the nearest dot that way, on-axis distance plus twice the off-axis one; dots on one place are
 * stepped through in reading order by Right/Left. Home/End: the first/last dot in reading order (the
 * lowest correlation first). With no current dot, any of these keys starts at the first. Undefined for
 * other keys or no dots; the current dot when none lies that way (the key is still the chart's).
 */
export function scatterDotAfterKey(dots: readonly KeyDot[], current: number | undefined, key: string): number | undefined {
  if (dots.length === 0) return undefined;
  const order = readingOrder(dots);
  if (key === 'End') return order[order.length - 1];
  if (key === 'Home') return order[0];
  const dir = DIRECTIONS[key];
  if (!dir) return undefined;
  if (current === undefined) return order[0];
  const from = dots[current];
  const rank = order.indexOf(current);
  let best = current;
  let bestScore = Infinity;
  for (let i = 0; i < dots.length; i++) {
    if (i === current) continue;
    const dx = dots[i].x - from.x;
    const dy = dots[i].y - from.y;
    let score: number;
    if (dx === 0 && dy === 0) {
      // Same place: only Right/Left step through them, in reading order.
      if (dir[1] !== 0 || Math.sign(order.indexOf(i) - rank) !== dir[0]) continue;
      score = Math.abs(order.indexOf(i) - rank) * Number.EPSILON;
    } else {
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue;
      score = along + OFF_AXIS_WEIGHT * Math.abs(dx * dir[1] + dy * dir[0]);
    }
    if (score < bestScore) [best, bestScore] = [i, score];
  }
  return best;
}
