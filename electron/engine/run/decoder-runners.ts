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
  /** talker.codebooks "all": logits are [.., codebooks, vocab] per position, read as codebooks × vocab values. */
  codebooks?: number;
}

/** Logit values per position: vocab, or codebooks × vocab for a talker that emits every codebook. */
const logitWidth = (d: DecoderShape): number => d.vocab * (d.codebooks ?? 1);

/** A decoder driven one way: feed embeddings [n, hidden] row-major, get the last position's outputs. */
export interface DecoderRunner {
  reset(): void;
  forward(embeds: Float32Array, n: number, extra?: Feeds): Promise<DecoderOutput>;
}

/** Row-major float32 input as the network's float type. */
export const toFloat = (d: DecoderShape, x: Float32Array, dims: number[]): OrtTensor =>
  d.float === 'float16' ? f16Tensor(toHalfArray(x), dims) : f32Tensor(x, dims);

function lastRow(t: OrtTensor, width: number): Float32Array {
  const data = t.data as Float32Array | Uint16Array;
  const row = data.subarray(data.length - width);
  return row instanceof Uint16Array ? fromHalfArray(row) : Float32Array.from(row);
}

const range = (from: number, n: number): BigInt64Array => BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i));
const ones = (n: number): BigInt64Array => new BigInt64Array(n).fill(1n);

/** Names the KV tensors (layer i at 2i, 2i+1) as the network's past_key_values.* inputs. */
export function bindPast(feeds: Feeds, past: readonly OrtTensor[], layers: number): void {
  for (let i = 0; i < layers; i++) {
    feeds[`past_key_values.${i}.key`] = past[2 * i];
    feeds[`past_key_values.${i}.value`] = past[2 * i + 1];
  }
}

/** The run's present.* outputs, in bindPast's order: the next run's past. */
export function presentOf(out: Feeds, layers: number): OrtTensor[] {
  return Array.from({ length: 2 * layers }, (_, j) => out[`present.${j >> 1}.${j % 2 === 0 ? 'key' : 'value'}`]);
}

/** graph: one buffer set bound as both past_key_values.* (feeds) and present.* (fetches), written in place. */
export function bindInPlace(feeds: Feeds, fetches: Feeds, kv: readonly OrtTensor[], layers: number): void {
  bindPast(feeds, kv, layers);
  for (let i = 0; i < layers; i++) {
    fetches[`present.${i}.key`] = kv[2 * i];
    fetches[`present.${i}.value`] = kv[2 * i + 1];
  }
}

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
    bindPast(feeds, this.past, d.layers);
    const out = await this.clock.time(() => run(this.session, feeds));
    this.past = presentOf(out, d.layers);
    this.length += n;
    return { logits: lastRow(out.logits, logitWidth(d)), hidden: d.hasHidden ? lastRow(out.last_hidden_state, d.hidden) : undefined };
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
 * The fixed tensors of a static-shape (graph) decoder for `rows` rows, allocated once and reused by
 * every run: [rows, kvHeads, maxPositions, headDim] KV buffers bound as both past_key_values.* and
 * present.*, the one-token input, attention_mask [rows, maxPositions], position_ids [rows, 1], and the
 * outputs, with the feeds and fetches maps that name them.
 */
export class StaticBuffers {
  readonly kv: OrtTensor[];
  readonly embeds: OrtTensor;
  readonly mask: BigInt64Array;
  readonly position: BigInt64Array;
  readonly logits: OrtTensor;
  readonly hidden?: OrtTensor;
  readonly feeds: Feeds;
  readonly fetches: Feeds;

  constructor(private readonly d: DecoderShape, rows: number) {
    this.kv = Array.from({ length: 2 * d.layers }, () => zeroTensor(d.float, [rows, d.kvHeads, d.maxPositions, d.headDim]));
    this.embeds = zeroTensor(d.float, [rows, 1, d.hidden]);
    this.mask = new BigInt64Array(rows * d.maxPositions);
    this.position = new BigInt64Array(rows);
    this.logits = zeroTensor(d.float, d.codebooks === undefined ? [rows, 1, d.vocab] : [rows, 1, d.codebooks, d.vocab]);
    if (d.hasHidden) this.hidden = zeroTensor(d.float, [rows, 1, d.hidden]);
    this.feeds = { inputs_embeds: this.embeds, attention_mask: i64Tensor(this.mask, [rows, d.maxPositions]), position_ids: i64Tensor(this.position, [rows, 1]) };
    this.fetches = { logits: this.logits };
    if (this.hidden) this.fetches.last_hidden_state = this.hidden;
    bindInPlace(this.feeds, this.fetches, this.kv, d.layers);
  }

  /** Stale buffer contents are masked out, but zeroing keeps a reset run identical to a fresh one. */
  clear(): void {
    this.mask.fill(0n);
    for (const t of this.kv) (t.data as Float32Array | Uint16Array).fill(0);
  }

  /** The next run's input rows (float32, [rows, hidden]) in the network's float type. */
  setEmbeds(rows: Float32Array): void {
    if (this.d.float === 'float16') (this.embeds.data as Uint16Array).set(toHalfArray(rows));
    else (this.embeds.data as Float32Array).set(rows);
  }
}

/**
 * graph: static shapes. One token per run through fixed [1, kvHeads, maxPositions, headDim] buffers
 * that the graph writes in place at the step's row (ScatterND): one buffer set is bound as both
 * past_key_values.* and present.*, so no step copies a KV buffer. Every input and output tensor, and
 * the feeds and fetches maps themselves, are allocated once and reused (session.run(feeds, fetches)).
 * The returned logits/hidden (fp32) are views of the reused outputs: valid until the next forward.
 */
export class GraphDecoder implements DecoderRunner {
  private readonly b: StaticBuffers;
  private length = 0;
  /** fp32: the outputs' last rows, made once (the output tensors never change). */
  private readonly logitsView?: Float32Array;
  private readonly hiddenView?: Float32Array;

  constructor(
    private readonly session: OrtSession,
    private readonly d: DecoderShape,
    private readonly clock: RunClock,
  ) {
    this.b = new StaticBuffers(d, 1);
    if (d.float === 'float32') {
      this.logitsView = lastView(this.b.logits, logitWidth(d));
      if (this.b.hidden) this.hiddenView = lastView(this.b.hidden, d.hidden);
    }
  }

  reset(): void {
    this.length = 0;
    this.b.clear();
  }

  async forward(embeds: Float32Array, n: number, extra?: Feeds): Promise<DecoderOutput> {
    const { d, b } = this;
    if (this.length + n > d.maxPositions) throw new RangeError(`graph decoder: position ${this.length + n} exceeds maxPositions ${d.maxPositions}`);
    if (extra) Object.assign(b.feeds, extra);
    for (let t = 0; t < n; t++) {
      b.setEmbeds(embeds.length === d.hidden ? embeds : embeds.subarray(t * d.hidden, (t + 1) * d.hidden));
      b.position[0] = BigInt(this.length);
      b.mask[this.length] = 1n;
      const t0 = performance.now();
      try {
        await run(this.session, b.feeds, b.fetches);
      } finally {
        this.clock.addSince(t0);
      }
      this.length++;
    }
    return {
      logits: this.logitsView ?? lastView(b.logits, logitWidth(d)),
      hidden: this.hiddenView ?? (b.hidden ? lastView(b.hidden, d.hidden) : undefined),
    };
  }
}

/** fp32: a view of the tensor's last `width` values (no copy); fp16: converted to a new float32 array. */
function lastView(t: OrtTensor, width: number): Float32Array {
  const data = t.data as Float32Array | Uint16Array;
  const row = data.subarray(data.length - width);
  return row instanceof Uint16Array ? fromHalfArray(row) : row;
}
