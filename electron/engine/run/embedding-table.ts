import { closeSync, openSync, readSync } from 'node:fs';
import type { TableFile } from '../bundle/embed-table-file.js';
import type { BundleManifest } from '../bundle/manifest.js';
import type { PrefillPosition } from '../bundle/prefill-template.js';
import { fromHalfBits } from '../numeric/float16.js';
import { i64Tensor, run, type OrtSession } from '../ort-session.js';
import type { RunClock } from './run-clock.js';

/** Adds row `id` of the table (width `hidden`) into `out` at `offset`. */
interface RowSource {
  readonly rows: number;
  addRow(id: number, out: Float32Array, offset: number): void;
  close(): void;
}

/** embed.export: the whole table, read once through its ONNX graph (input_ids = every row), float32. */
class MemoryRows implements RowSource {
  constructor(
    private readonly data: Float32Array,
    readonly rows: number,
    private readonly h: number,
  ) {}

  addRow(id: number, out: Float32Array, offset: number): void {
    const base = id * this.h;
    for (let i = 0; i < this.h; i++) out[offset + i] += this.data[base + i];
  }

  close(): void {}
}

/**
 * embed.table: rows read from the file when needed (fs.readSync at the row's offset into one reused
 * buffer), so a 151k-row text table never sits in memory. float16 rows are widened to float32.
 */
class FileRows implements RowSource {
  private readonly fd: number;
  private readonly buf: Buffer;
  readonly rows: number;

  constructor(private readonly t: TableFile) {
    this.fd = openSync(t.path, 'r');
    this.buf = Buffer.alloc(t.rowBytes);
    this.rows = t.rows;
  }

  addRow(id: number, out: Float32Array, offset: number): void {
    const { t, buf } = this;
    const got = readSync(this.fd, buf, 0, t.rowBytes, t.dataOffset + id * t.rowBytes);
    if (got !== t.rowBytes) throw new Error(`${t.path}: row ${id} could not be read (${got} of ${t.rowBytes} bytes)`);
    if (t.dtype === 'float16') for (let i = 0; i < t.width; i++) out[offset + i] += fromHalfBits(buf.readUInt16LE(2 * i));
    else for (let i = 0; i < t.width; i++) out[offset + i] += buf.readFloatLE(4 * i);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The bundle's embedding table: text rows, then codebook c's codec rows from codecRowOffset +
 * c·codecRowsPerCodebook. Lookups return float32 [n, hidden] row-major.
 */
export class EmbeddingTable {
  private constructor(
    private readonly source: RowSource,
    readonly hidden: number,
    private readonly m: BundleManifest,
  ) {}

  static async read(session: OrtSession, m: BundleManifest, clock: RunClock): Promise<EmbeddingTable> {
    const count = m.embed.codecRowOffset + m.codebooks * m.embed.codecRowsPerCodebook;
    const ids = BigInt64Array.from({ length: count }, (_, i) => BigInt(i));
    const out = await clock.time(() => run(session, { input_ids: i64Tensor(ids, [1, count]) }));
    return new EmbeddingTable(new MemoryRows(Float32Array.from(out.inputs_embeds.data as Float32Array), count, m.talker.hidden), m.talker.hidden, m);
  }

  /** A table read by rows from an embed.table file (checked by loadBundle); close() releases the file. */
  static fromFile(t: TableFile, m: BundleManifest): EmbeddingTable {
    return new EmbeddingTable(new FileRows(t), m.talker.hidden, m);
  }

  close(): void {
    this.source.close();
  }

  codecRow(codebook: number, code: number): number {
    return this.m.embed.codecRowOffset + codebook * this.m.embed.codecRowsPerCodebook + code;
  }

  private add(id: number, out: Float32Array, offset: number): void {
    if (!(id >= 0 && id < this.source.rows)) throw new RangeError(`embedding row ${id} is outside the table (0..${this.source.rows - 1})`);
    this.source.addRow(id, out, offset);
  }

  /** Rows stacked: [ids.length, hidden]. */
  gather(ids: readonly number[]): Float32Array {
    const h = this.hidden;
    const out = new Float32Array(ids.length * h);
    for (let i = 0; i < ids.length; i++) this.add(ids[i], out, i * h);
    return out;
  }

  /** Row `id` written into `out` [hidden] (overwritten), for loops that reuse one buffer per step. */
  rowInto(id: number, out: Float32Array): Float32Array {
    out.fill(0);
    this.add(id, out, 0);
    return out;
  }

  /** Prefill positions stacked: each the text row plus the codebook-0 codec row it names, [positions.length, hidden]. */
  prefill(positions: readonly PrefillPosition[]): Float32Array {
    const h = this.hidden;
    const out = new Float32Array(positions.length * h);
    positions.forEach((p, i) => {
      if (p.text !== undefined) this.add(p.text, out, i * h);
      if (p.codec !== undefined) this.add(this.codecRow(0, p.codec), out, i * h);
    });
    return out;
  }

  /** Adds text row `id` to `out` [hidden] in place (per-step text conditioning). */
  addText(out: Float32Array, id: number): void {
    this.add(id, out, 0);
  }

  /** Audio feedback: the sum, in codebook order, of the Q codec embeddings of one frame's codes. */
  feedback(codes: ArrayLike<number>): Float32Array {
    const out = new Float32Array(this.hidden);
    for (let q = 0; q < codes.length; q++) this.add(this.codecRow(q, codes[q]), out, 0);
    return out;
  }
}
