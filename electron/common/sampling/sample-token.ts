import { InputError } from '../errors.js';
import type { SamplingParams } from './types.js';

/**
 * Token selection from one logit row, in the order HF transformers applies its processors:
 * repetition penalty → (greedy argmax | temperature → top-k → top-p → one inverse-CDF draw).
 *
 * Defined behaviour, so two engines can reproduce it exactly:
 * - ties: the lower token id ranks first (argmax, top-k and top-p all use value desc, then id asc);
 * - repetition penalty (CTRL, Keskar et al. 2019): every distinct id in `history` has its logit divided
 *   by the penalty when positive, multiplied when negative — once, however often it occurred;
 * - top-k keeps the k best ids by a bounded heap (O(V log k)), never sorting the vocabulary;
 * - top-p keeps the smallest best-first prefix whose probability reaches p (at least one id), popped
 *   from a heap (O(V + m log V) for m kept ids);
 * - the draw u ∈ [0,1) picks, among the kept ids in ascending id order, the first whose cumulative
 *   probability exceeds u·(their total);
 * - a NaN logit (after the penalty) makes the result the first NaN's id, as `torch.argmax` does, in
 *   greedy and sample mode alike: a NaN in the logits is a bug to localise, not to sample around.
 * Scratch buffers live in the Sampler and grow only when the vocabulary does.
 */
export class Sampler {
  private values = new Float64Array(0);
  private heap = new Int32Array(0);
  private mark = new Int32Array(0);
  private generation = 0;

  sample(logits: Float32Array, params: SamplingParams, draw: number, history?: ArrayLike<number>): number {
    const n = logits.length;
    if (n === 0) throw new InputError('sampleToken: empty logits');
    const penalised = history !== undefined && params.repetitionPenalty !== 1;
    // Greedy with nothing to penalise reads the row as it is (the copy below changes no value).
    if (params.mode === 'greedy' && !penalised) return argmax(logits, n);
    this.ensure(n);
    const v = this.values;
    for (let i = 0; i < n; i++) v[i] = logits[i];
    if (penalised) this.penalise(history, params.repetitionPenalty, n);

    const best = argmax(v, n);
    if (Number.isNaN(v[best])) return best;
    if (params.mode === 'greedy') return best;
    checkSample(params, draw);

    const invT = 1 / params.temperature;
    for (let i = 0; i < n; i++) v[i] *= invT;
    const max = v[best];
    const k = params.topK > 0 && params.topK < n ? params.topK : n;
    let m = k < n ? this.topK(k, n) : this.all(n);
    if (params.topP < 1) m = this.topP(m, params.topP, max);

    const mark = ++this.generation;
    let total = 0;
    for (let j = 0; j < m; j++) {
      this.mark[this.heap[j]] = mark;
      total += Math.exp(v[this.heap[j]] - max);
    }
    const target = draw * total;
    let cumulative = 0;
    let last = -1;
    for (let i = 0; i < n; i++) {
      if (this.mark[i] !== mark) continue;
      cumulative += Math.exp(v[i] - max);
      last = i;
      if (cumulative > target) return i;
    }
    return last;
  }

  private ensure(n: number): void {
    if (this.values.length >= n) return;
    this.values = new Float64Array(n);
    this.heap = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.generation = 0;
  }

  private penalise(history: ArrayLike<number>, penalty: number, n: number): void {
    if (!(penalty > 0)) throw new InputError(`sampling: repetitionPenalty must be > 0, found ${penalty}`);
    const mark = ++this.generation;
    for (let h = 0; h < history.length; h++) {
      const id = history[h];
      if (!(id >= 0 && id < n) || this.mark[id] === mark) continue;
      this.mark[id] = mark;
      const x = this.values[id];
      this.values[id] = x > 0 ? x / penalty : x * penalty;
    }
  }

  /** True when id a ranks before id b: larger value, then lower id. */
  private better(a: number, b: number): boolean {
    const va = this.values[a];
    const vb = this.values[b];
    return va > vb || (va === vb && a < b);
  }

  private all(n: number): number {
    for (let i = 0; i < n; i++) this.heap[i] = i;
    return n;
  }

  /** Leaves the k best ids in heap[0..k) (a min-heap: the worst kept id at the root). */
  private topK(k: number, n: number): number {
    const h = this.heap;
    for (let i = 0; i < k; i++) h[i] = i;
    for (let i = (k >> 1) - 1; i >= 0; i--) this.siftDown(i, k, true);
    for (let i = k; i < n; i++) {
      if (this.better(i, h[0])) {
        h[0] = i;
        this.siftDown(0, k, true);
      }
    }
    return k;
  }

  /** Reorders heap[0..m) so its first entries are the nucleus, best first; returns the nucleus size. */
  private topP(m: number, p: number, max: number): number {
    const h = this.heap;
    let total = 0;
    for (let j = 0; j < m; j++) total += Math.exp(this.values[h[j]] - max);
    for (let i = (m >> 1) - 1; i >= 0; i--) this.siftDown(i, m, false);
    // Pop the best to the end of the shrinking heap; the popped suffix is best-first reversed.
    let size = m;
    let cumulative = 0;
    while (size > 0) {
      const top = h[0];
      h[0] = h[size - 1];
      h[size - 1] = top;
      size--;
      if (size > 0) this.siftDown(0, size, false);
      cumulative += Math.exp(this.values[top] - max);
      if (cumulative >= p * total) break;
    }
    const kept = m - size;
    for (let j = 0; j < kept; j++) h[j] = h[size + j];
    return kept;
  }

  /** minHeap: root is the worst id (for top-k); otherwise the best (for top-p). */
  private siftDown(start: number, size: number, minHeap: boolean): void {
    const h = this.heap;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const r = l + 1;
      let c = l;
      if (r < size && (minHeap ? this.better(h[l], h[r]) : this.better(h[r], h[l]))) c = r;
      if (minHeap ? this.better(h[i], h[c]) : this.better(h[c], h[i])) {
        const t = h[i];
        h[i] = h[c];
        h[c] = t;
        i = c;
      } else return;
    }
  }
}

/** The checks sample mode makes before a draw (exported so backend=native refuses bad settings up front with the same words). */
export function checkSample(params: SamplingParams, draw: number): void {
  if (!(params.temperature > 0) || !Number.isFinite(params.temperature)) {
    throw new InputError(`sampling: temperature must be a finite number > 0, found ${params.temperature}`);
  }
  if (!Number.isInteger(params.topK) || params.topK < 0) throw new InputError(`sampling: topK must be an integer >= 0, found ${params.topK}`);
  if (!(params.topP > 0 && params.topP <= 1)) throw new InputError(`sampling: topP must be in (0, 1], found ${params.topP}`);
  if (!(draw >= 0 && draw < 1)) throw new InputError(`sampling: the draw must be in [0, 1), found ${draw}`);
}

const shared = new Sampler();

/** One token from `logits` (see Sampler). Uses a shared Sampler: no allocation once warmed up. */
export function sampleToken(logits: Float32Array, params: SamplingParams, draw: number, history?: ArrayLike<number>): number {
  return shared.sample(logits, params, draw, history);
}

/** Of v[0..n): the first NaN's id if there is one, else the largest value's id, the lowest on ties. */
function argmax(v: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let i = 0; i < n; i++) {
    if (v[i] !== v[i]) return i;
    if (v[i] > v[best]) best = i;
  }
  return best;
}
