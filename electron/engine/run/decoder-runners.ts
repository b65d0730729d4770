import { fromHalfArray, toHalfArray } from '../numeric/float16.js';
import { f16Tensor, f32Tensor, i64Tensor, run, zeroTensor, type Feeds, type OrtSession, type OrtTensor } from '../ort-session.js';
import type { RunClock } from './run-clock.js';

/** What one forward pass yields for its last position. */
export interface DecoderOutput {
  /** Logits of the last position, float32 (converted from fp16 where needed). */
  logits: Float32Array;
  /** Final-normed hidden state of the last position (talker only). */
  hidden?: Float32Array;
}

export interface DecoderShape {
  layers: number;
  kvHeads: number;
  headDim: number;
  hidden: number;
  maxPositions: number;
  vocab: number;
  float: 'float32' | 'float16';
  /** Whether the network has a last_hidden_state output (the talker). */
  hasHidden: boolean;
}

/** A decoder driven one way: feed embeddings [n, hidden] row-major, get the last position's outputs. */
export interface DecoderRunner {
  reset(): void;
  forward(embeds: Float32Array, n: number, extra?: Feeds): Promise<DecoderOutput>;
}

const toFloat = (d: DecoderShape, x: Float32Array, dims: number[]): OrtTensor =>
  d.float === 'float16' ? f16Tensor(toHalfArray(x), dims) : f32Tensor(x, dims);

function lastRow(t: OrtTensor, width: number): Float32Array {
  const data = t.data as Float32Array | Uint16Array;
  const row = data.subarray(data.length - width);
  return row instanceof Uint16Array ? fromHalfArray(row) : Float32Array.from(row);
}

const range = (from: number, n: number): BigInt64Array => BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i));
const ones = (n: number): BigInt64Array => new BigInt64Array(n).fill(1n);

/** eager: dynamic shapes; the graph concatenates each step's K/V to the past it is given. */
export class EagerDecoder implements DecoderRunner {
  private past: OrtTensor[] = [];
  private length = 0;

  constructor(
    private readonly session: OrtSession,
    private readonly d: DecoderShape,
    private readonly clock: RunClock,
  ) {
    this.reset();
  }

  reset(): void {
    this.length = 0;
    this.past = Array.from({ length: 2 * this.d.layers }, () => zeroTensor(this.d.float, [1, this.d.kvHeads, 0, this.d.headDim]));
  }

  async forward(embeds: Float32Array, n: number, extra: Feeds = {}): Promise<DecoderOutput> {
    const { d } = this;
    const feeds: Feeds = {
      ...extra,
      inputs_embeds: toFloat(d, embeds, [1, n, d.hidden]),
      attention_mask: i64Tensor(ones(this.length + n), [1, this.length + n]),
      position_ids: i64Tensor(range(this.length, n), [1, n]),
    };
    for (let i = 0; i < d.layers; i++) {
      feeds[`past_key_values.${i}.key`] = this.past[2 * i];
      feeds[`past_key_values.${i}.value`] = this.past[2 * i + 1];
    }
    const out = await this.clock.time(() => run(this.session, feeds));
    for (let i = 0; i < d.layers; i++) {
      this.past[2 * i] = out[`present.${i}.key`];
      this.past[2 * i + 1] = out[`present.${i}.value`];
    }
    this.length += n;
    return { logits: lastRow(out.logits, d.vocab), hidden: d.hasHidden ? lastRow(out.last_hidden_state, d.hidden) : undefined };
  }
}

/**
 * cache=recompute: no KV cache at all; every forward re-runs the eager graph over the whole sequence
 * so far (empty past), as a non-incremental decoder does.
 */
export class RecomputeDecoder implements DecoderRunner {
  private readonly inner: EagerDecoder;
  private seq = new Float32Array(0);
  private count = 0;

  constructor(session: OrtSession, private readonly d: DecoderShape, clock: RunClock) {
    this.inner = new EagerDecoder(session, d, clock);
  }

  reset(): void {
    this.seq = new Float32Array(0);
    this.count = 0;
  }

  async forward(embeds: Float32Array, n: number, extra?: Feeds): Promise<DecoderOutput> {
    const grown = new Float32Array(this.seq.length + embeds.length);
    grown.set(this.seq);
    grown.set(embeds, this.seq.length);
    this.seq = grown;
    this.count += n;
    this.inner.reset();
    return this.inner.forward(this.seq, this.count, extra);
  }
}

/**
 * graph: static shapes. One token per run through fixed [1, kvHeads, maxPositions, headDim] buffers
 * that the graph writes at the step's position; two buffer sets alternate as past/present, and every
 * input and output tensor is allocated once and reused (session.run(feeds, fetches)).
 */
export class GraphDecoder implements DecoderRunner {
  private readonly sets: OrtTensor[][];
  private readonly embeds: OrtTensor;
  private readonly mask: OrtTensor;
  private readonly position: OrtTensor;
  private readonly logits: OrtTensor;
  private readonly hidden?: OrtTensor;
  private length = 0;

  constructor(
    private readonly session: OrtSession,
    private readonly d: DecoderShape,
    private readonly clock: RunClock,
  ) {
    const kv = [1, d.kvHeads, d.maxPositions, d.headDim];
    this.sets = [0, 1].map(() => Array.from({ length: 2 * d.layers }, () => zeroTensor(d.float, kv)));
    this.embeds = zeroTensor(d.float, [1, 1, d.hidden]);
    this.mask = i64Tensor(new BigInt64Array(d.maxPositions), [1, d.maxPositions]);
    this.position = i64Tensor(new BigInt64Array(1), [1, 1]);
    this.logits = zeroTensor(d.float, [1, 1, d.vocab]);
    if (d.hasHidden) this.hidden = zeroTensor(d.float, [1, 1, d.hidden]);
  }

  reset(): void {
    this.length = 0;
    (this.mask.data as BigInt64Array).fill(0n);
    // Stale buffer contents are masked out, but zeroing keeps a reset run identical to a fresh one.
    for (const set of this.sets) for (const t of set) (t.data as Float32Array | Uint16Array).fill(0);
  }

  async forward(embeds: Float32Array, n: number, extra: Feeds = {}): Promise<DecoderOutput> {
    const { d } = this;
    if (this.length + n > d.maxPositions) throw new RangeError(`graph decoder: position ${this.length + n} exceeds maxPositions ${d.maxPositions}`);
    for (let t = 0; t < n; t++) {
      const row = embeds.subarray(t * d.hidden, (t + 1) * d.hidden);
      if (d.float === 'float16') (this.embeds.data as Uint16Array).set(toHalfArray(row));
      else (this.embeds.data as Float32Array).set(row);
      (this.position.data as BigInt64Array)[0] = BigInt(this.length);
      (this.mask.data as BigInt64Array)[this.length] = 1n;
      const past = this.sets[this.length % 2];
      const present = this.sets[(this.length + 1) % 2];
      const feeds: Feeds = { ...extra, inputs_embeds: this.embeds, attention_mask: this.mask, position_ids: this.position };
      const fetches: Feeds = { logits: this.logits };
      if (this.hidden) fetches.last_hidden_state = this.hidden;
      for (let i = 0; i < d.layers; i++) {
        feeds[`past_key_values.${i}.key`] = past[2 * i];
        feeds[`past_key_values.${i}.value`] = past[2 * i + 1];
        fetches[`present.${i}.key`] = present[2 * i];
        fetches[`present.${i}.value`] = present[2 * i + 1];
      }
      await this.clock.time(() => run(this.session, feeds, fetches));
      this.length++;
    }
    return { logits: lastRow(this.logits, d.vocab), hidden: this.hidden ? lastRow(this.hidden, d.hidden) : undefined };
  }
}
