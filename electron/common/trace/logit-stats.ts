import type { LogitStats } from './step-record.js';

const TOP = 5;
const topIds = new Int32Array(TOP);
const topVals = new Float64Array(TOP);

/**
 * Statistics of one logit row, as recorded per step in the trace.
 * - mean and std are over all entries in float64; std is the population std (divide by N, like
 *   numpy's default, not torch.std's N-1). Any NaN makes both NaN; ±Inf propagate by IEEE arithmetic.
 * - min, max and top5 skip NaNs, so a partly-NaN row still charts; they are NaN / empty if all are NaN.
 * - argmax is the first NaN's id when there is one (as torch.argmax, and as the sampler picks), else the
 *   largest logit with the lowest id on ties. top5 is best first, same tie rule, found in one pass.
 */
export function logitStats(logits: ArrayLike<number>): LogitStats {
  const n = logits.length;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let firstNaN = -1;
  let filled = 0;
  for (let i = 0; i < n; i++) {
    const x = logits[i];
    sum += x;
    if (x !== x) {
      if (firstNaN < 0) firstNaN = i;
      continue;
    }
    if (x < min) min = x;
    if (x > max) max = x;
    if (filled < TOP || x > topVals[filled - 1]) {
      let j = filled < TOP ? filled++ : TOP - 1;
      while (j > 0 && x > topVals[j - 1]) {
        topVals[j] = topVals[j - 1];
        topIds[j] = topIds[j - 1];
        j--;
      }
      topVals[j] = x;
      topIds[j] = i;
    }
  }
  const mean = n > 0 ? sum / n : NaN;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (logits[i] - mean) * (logits[i] - mean);
  const std = n > 0 ? Math.sqrt(sq / n) : NaN;
  // A loop, not Array.from with a callback: this runs once per network run, and Array.from was a third of it.
  const top5: LogitStats['top5'] = [];
  for (let j = 0; j < filled; j++) top5.push({ id: topIds[j], logit: topVals[j] });
  return {
    mean,
    std,
    min: filled > 0 ? min : NaN,
    max: filled > 0 ? max : NaN,
    argmax: firstNaN >= 0 ? firstNaN : filled > 0 ? topIds[0] : -1,
    top5,
  };
}

export interface NonFiniteCounts {
  nan: number;
  inf: number;
}

/** How many entries are NaN and how many are ±Infinity. */
export function countNonFinite(values: ArrayLike<number>): NonFiniteCounts {
  let nan = 0;
  let inf = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (x !== x) nan++;
    else if (x === Infinity || x === -Infinity) inf++;
  }
  return { nan, inf };
}
