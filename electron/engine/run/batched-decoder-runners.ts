import { fromHalfArray } from '../numeric/float16.js';
import { i64Tensor, run, zeroTensor, type Feeds, type OrtSession, type OrtTensor } from '../ort-session.js';
import { bindPast, presentOf, StaticBuffers, toFloat, type DecoderShape } from './decoder-runners.js';
import type { RunClock } from './run-clock.js';

/** Each row's outputs at its last position of one forward. */
export interface BatchedDecoderOutput {
  /** [rows, vocab] float32. */
  logits: Float32Array;
  /** [rows, hidden] float32 (talker only). */
  hidden?: Float32Array;
}

/**
 * A batched decoder export (bundle.json `batch`) driven for `rows` rows at once. `embeds` is
 * [rows, n, hidden] row-major; `real[r·n + t]` says whether token t of row r is a real token (1) or
 * padding (0): a padding token is run (the batch has a fixed shape) but never seen by any later token.
 */
export interface BatchedDecoderRunner {
  readonly rows: number;
  reset(): void;
  forward(embeds: Float32Array, n: number, real: Uint8Array, extra?: Feeds): Promise<BatchedDecoderOutput>;
}

/** Row r's last position of a [rows, n, width] output, for every row: [rows, width] float32. */
function lastPositions(t: OrtTensor, rows: number, n: number, width: number): Float32Array {
  const data = t.data as Float32Array | Uint16Array;
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const at = (r * n + n - 1) * width;
    const row = data.subarray(at, at + width);
    out.set(row instanceof Uint16Array ? fromHalfArray(row) : row, r * width);
  }
  return out;
}

/**
 * eager, batched: dynamic shapes, the KV cache [rows, kvHeads, T, headDim] grown by concatenation, so
 * every row has the same cache length T. Rows are left-padded: a padding token takes a cache index
 * whose attention_mask stays 0, and position_ids count each row's real tokens only, so a row's RoPE
 * positions are those it has run alone.
 */
export class BatchedEagerDecoder implements BatchedDecoderRunner {
  private past: OrtTensor[] = [];
  /** [rows][cache index]: 1 for a real token. */
  private mask: number[][] = [];
  private positions: number[] = [];

  constructor(
    private readonly session: OrtSession,
    private readonly d: DecoderShape,
    private readonly clock: RunClock,
    readonly rows: number,
  ) {
    this.reset();
  }

  reset(): void {
    this.past = Array.from({ length: 2 * this.d.layers }, () => zeroTensor(this.d.float, [this.rows, this.d.kvHeads, 0, this.d.headDim]));
    this.mask = Array.from({ length: this.rows }, () => []);
    this.positions = new Array<number>(this.rows).fill(0);
  }

  async forward(embeds: Float32Array, n: number, real: Uint8Array, extra: Feeds = {}): Promise<BatchedDecoderOutput> {
    const { d, rows } = this;
    for (let r = 0; r < rows; r++) for (let t = 0; t < n; t++) this.mask[r].push(real[r * n + t]);
    const total = this.mask[0].length;
    const mask = BigInt64Array.from(this.mask.flat(), BigInt);
    const positions = new BigInt64Array(rows * n);
    for (let r = 0; r < rows; r++) {
      for (let t = 0; t < n; t++) {
        positions[r * n + t] = BigInt(this.positions[r]);
        if (real[r * n + t]) this.positions[r]++;
      }
    }
    const feeds: Feeds = {
      ...extra,
      inputs_embeds: toFloat(d, embeds, [rows, n, d.hidden]),
      attention_mask: i64Tensor(mask, [rows, total]),
      position_ids: i64Tensor(positions, [rows, n]),
    };
    bindPast(feeds, this.past, d.layers);
    const out = await this.clock.time(() => run(this.session, feeds));
    this.past = presentOf(out, d.layers);
    return { logits: lastPositions(out.logits, rows, n, d.vocab), hidden: d.hasHidden ? lastPositions(out.last_hidden_state, rows, n, d.hidden) : undefined };
  }
}

/**
 * graph, batched: a graph export at a fixed batch bucket, one token per run for every row, fixed
 * [rows, kvHeads, maxPositions, headDim] buffers bound as both past and present (as GraphDecoder).
 * Each row sits at its own position (position_ids[r], where the graph writes its K/V), as a CUDA-graph
 * decode runner keeps one slot per request; a padding token runs at the row's next position without
 * marking it, so the row's next real token overwrites it.
 */
export class BatchedGraphDecoder implements BatchedDecoderRunner {
  private readonly b: StaticBuffers;
  private readonly lengths: number[];

  constructor(
    private readonly session: OrtSession,
    private readonly d: DecoderShape,
    private readonly clock: RunClock,
    readonly rows: number,
  ) {
    this.b = new StaticBuffers(d, rows);
    this.lengths = new Array<number>(rows).fill(0);
  }

  reset(): void {
    this.lengths.fill(0);
    this.b.clear();
  }

  async forward(embeds: Float32Array, n: number, real: Uint8Array, extra?: Feeds): Promise<BatchedDecoderOutput> {
    const { d, rows, b } = this;
    if (extra) Object.assign(b.feeds, extra);
    const step = new Float32Array(rows * d.hidden);
    for (let t = 0; t < n; t++) {
      for (let r = 0; r < rows; r++) {
        step.set(embeds.subarray((r * n + t) * d.hidden, (r * n + t + 1) * d.hidden), r * d.hidden);
        const at = Math.min(this.lengths[r], d.maxPositions - 1);
        if (real[r * n + t] && this.lengths[r] >= d.maxPositions) throw new RangeError(`graph decoder row ${r}: position ${this.lengths[r] + 1} exceeds maxPositions ${d.maxPositions}`);
        b.position[r] = BigInt(at);
        if (real[r * n + t]) b.mask[r * d.maxPositions + at] = 1n;
      }
      b.setEmbeds(step);
      await this.clock.time(() => run(this.session, b.feeds, b.fetches));
      for (let r = 0; r < rows; r++) if (real[r * n + t]) this.lengths[r]++;
    }
    return { logits: lastPositions(b.logits, rows, 1, d.vocab), hidden: b.hidden ? lastPositions(b.hidden, rows, 1, d.hidden) : undefined };
  }
}
