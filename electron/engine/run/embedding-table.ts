import { i64Tensor, run, type OrtSession } from '../ort-session.js';
import type { BundleManifest } from '../bundle/manifest.js';
import type { RunClock } from './run-clock.js';

/**
 * The bundle's embedding table, read once through its own ONNX graph (input_ids = every row), so
 * lookups in the decode loop are plain copies: rows [rows, hidden] float32.
 */
export class EmbeddingTable {
  private constructor(
    private readonly rows: Float32Array,
    readonly hidden: number,
    private readonly m: BundleManifest,
  ) {}

  static async read(session: OrtSession, m: BundleManifest, clock: RunClock): Promise<EmbeddingTable> {
    const count = m.embed.codecRowOffset + m.codebooks * m.embed.codecRowsPerCodebook;
    const ids = BigInt64Array.from({ length: count }, (_, i) => BigInt(i));
    const out = await clock.time(() => run(session, { input_ids: i64Tensor(ids, [1, count]) }));
    return new EmbeddingTable(Float32Array.from(out.inputs_embeds.data as Float32Array), m.talker.hidden, m);
  }

  codecRow(codebook: number, code: number): number {
    return this.m.embed.codecRowOffset + codebook * this.m.embed.codecRowsPerCodebook + code;
  }

  /** Rows stacked: [ids.length, hidden]. */
  gather(ids: readonly number[]): Float32Array {
    const h = this.hidden;
    const out = new Float32Array(ids.length * h);
    ids.forEach((id, i) => out.set(this.rows.subarray(id * h, (id + 1) * h), i * h));
    return out;
  }

  /** Audio feedback: the sum, in codebook order, of the Q codec embeddings of one frame's codes. */
  feedback(codes: ArrayLike<number>): Float32Array {
    const h = this.hidden;
    const out = new Float32Array(h);
    for (let q = 0; q < codes.length; q++) {
      const base = this.codecRow(q, codes[q]) * h;
      for (let i = 0; i < h; i++) out[i] += this.rows[base + i];
    }
    return out;
  }
}
