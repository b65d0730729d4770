import type { SamplingParams } from '../../../../electron/common/sampling/types.js';

/**
 * The sampled pick as docs/native-backend.md defines it, written the plain way (a full sort, exact integer
 * sums in Numbers below 2^53), as the oracle the native radix-select pick must equal id for id:
 * penalty, the best id (a NaN wins), scaled = v / T, mass = rint(exp(scaled - max) * 2^S) with
 * S = 53 - ceil(log2 V); top-k = the first k ids in the order (scaled desc, id asc); top-p = the shortest
 * prefix of those whose mass reaches topP * (their mass); the draw: the first kept id, in id order,
 * whose cumulative mass exceeds u * (kept mass), else the last kept id.
 */
export function definedPick(logits: Float32Array, skip: number, p: SamplingParams, u: number, history: ArrayLike<number>): number {
  const n = logits.length;
  const v = Float64Array.from(logits);
  if (skip >= 0) v[skip] = -Infinity;
  if (p.repetitionPenalty !== 1) {
    for (const id of new Set(Array.from(history))) {
      if (id >= 0 && id < n) v[id] = v[id] > 0 ? v[id] / p.repetitionPenalty : v[id] * p.repetitionPenalty;
    }
  }
  let best = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(v[i])) return i;
    if (v[i] > v[best]) best = i;
  }
  if (p.mode === 'greedy') return best;
  const invT = 1 / p.temperature;
  const scaled = Array.from(v, (x) => x * invT);
  let bits = 0;
  while (2 ** bits < n) bits++;
  const scale = 2 ** (53 - bits);
  const mass = scaled.map((s) => roundHalfEven(Math.exp(s - scaled[best]) * scale));
  const order = scaled.map((_, i) => i).sort((a, b) => (scaled[a] > scaled[b] ? -1 : scaled[a] < scaled[b] ? 1 : a - b));
  let kept = order.slice(0, p.topK > 0 && p.topK < n ? p.topK : n);
  if (p.topP < 1) {
    const target = p.topP * kept.reduce((sum, id) => sum + mass[id], 0);
    let cumulative = 0;
    let size = 0;
    while (size < kept.length) {
      cumulative += mass[kept[size++]];
      if (cumulative >= target) break;
    }
    kept = kept.slice(0, size);
  }
  const keep = new Set(kept);
  const target = u * kept.reduce((sum, id) => sum + mass[id], 0);
  let cumulative = 0;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (!keep.has(i)) continue;
    cumulative += mass[i];
    last = i;
    if (cumulative > target) return i;
  }
  return last;
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
