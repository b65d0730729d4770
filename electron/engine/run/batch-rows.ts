import { codebookSizeOf, type BundleManifest } from '../bundle/manifest.js';
import type { TextTokenizer } from '../bundle/text-tokenizer.js';
import type { Feeds } from '../ort-session.js';
import { tokenizeText } from '../text-input.js';
import { batchText } from './batch-texts.js';
import type { BatchedDecoderRunner } from './batched-decoder-runners.js';
import type { DecoderOutput, DecoderRunner } from './decoder-runners.js';
import type { EmbeddingTable } from './embedding-table.js';

/** Rows 1..N−1: another prompt each, decoded greedily alongside row 0 and never reported. */
interface OtherRow {
  prefill: Float32Array;
  prefillLength: number;
  conditioning?: { ids: number[]; pad: number };
  frames: number;
  /** Codes of the frame being decoded (codebooks 0..q−1), then fed back at the next step. */
  frame: number[];
  /** The talker's hidden state of the current step (the code predictor's position 0). */
  hidden: Float32Array;
}

/** The prompt, cut by whole characters to the bundle's text limit (a small bundle takes fewer tokens than BATCH_TEXTS' longest). */
function fitText(text: string, tokenizer: TextTokenizer): string {
  const chars = [...text];
  while (chars.length > 1 && tokenizer.encode(chars.join('')).length > tokenizer.info.limit) chars.pop();
  return chars.join('');
}

const argmax = (row: Float32Array, size: number): number => {
  let best = 0;
  for (let i = 1; i < size; i++) if (row[i] > row[best]) best = i;
  return best;
};

/**
 * A batch=N run (docs/profiles.md "Batch invariance"): the request's prompt is row 0 of a batch whose
 * other rows are BATCH_TEXTS prompts, all run through batched exports (talker and code predictor) in
 * one forward per step. `talker` and `codePredictor` are row 0's view of them, plain DecoderRunners
 * for the synthesis loop, so row 0's inputs and picks are the loop's own (teacher forcing and the
 * faults included); the other rows pick greedily and decode their own frames (a row whose frames are
 * done, and the padding rows up to a graph bucket, run padding tokens). Only row 0 is reported.
 *
 * Prefill rows are left-padded to the longest. `gatherFault`: from that talker step on, the gather of
 * each row's last-position logits and hidden state reads the next row's (row r ← row (r+1) mod N),
 * the wrong-row gather of sglang-omni 578.
 */
export class BatchRows {
  readonly talker: DecoderRunner;
  readonly codePredictor: DecoderRunner;
  private readonly others: OtherRow[];
  private step = 0;
  private codebook = 0;

  constructor(
    private readonly m: BundleManifest,
    tokenizer: TextTokenizer,
    private readonly table: EmbeddingTable,
    private readonly batchedTalker: BatchedDecoderRunner,
    private readonly batchedCp: BatchedDecoderRunner,
    private readonly batch: number,
    private readonly gatherFault?: number,
  ) {
    this.others = Array.from({ length: batch - 1 }, (_, i) => {
      const text = tokenizeText(fitText(batchText(i + 1), tokenizer), m, tokenizer);
      const t = text.talker;
      return {
        prefill: table.prefill(t.prefill),
        prefillLength: t.prefill.length,
        ...(t.conditioning ? { conditioning: t.conditioning } : {}),
        frames: text.frames,
        frame: [],
        hidden: new Float32Array(0),
      };
    });
    this.talker = { reset: () => this.resetTalker(), forward: (embeds, n) => this.talkerStep(embeds, n) };
    this.codePredictor = { reset: () => this.resetCp(), forward: (embeds, n, extra) => this.cpStep(embeds, n, extra) };
  }

  /** Whether row r (≥ 1) decodes at the current step: its own frames not yet done. */
  private live(r: number): boolean {
    return r < this.batch && this.step <= this.others[r - 1].frames;
  }

  private resetTalker(): void {
    this.step = 0;
    this.batchedTalker.reset();
  }

  private resetCp(): void {
    this.codebook = 0;
    this.batchedCp.reset();
  }

  /** Row r's source row in the gather: itself, or under the fault the next row. */
  private gathered(r: number): number {
    return this.gatherFault !== undefined && this.step >= this.gatherFault && r < this.batch ? (r + 1) % this.batch : r;
  }

  private async talkerStep(row0: Float32Array, n: number): Promise<DecoderOutput> {
    this.step++;
    const { rows } = this.batchedTalker;
    const h = this.table.hidden;
    const width = this.step === 1 ? Math.max(n, ...this.others.map((o) => o.prefillLength)) : n;
    const embeds = new Float32Array(rows * width * h);
    const real = new Uint8Array(rows * width);
    const place = (r: number, x: Float32Array, len: number): void => {
      embeds.set(x, (r * width + width - len) * h); // left-padded: the real tokens end at the last position
      real.fill(1, r * width + width - len, (r + 1) * width);
    };
    place(0, row0, n);
    for (let r = 1; r < this.batch; r++) {
      const o = this.others[r - 1];
      if (this.step === 1) place(r, o.prefill, o.prefillLength);
      else if (this.live(r)) place(r, this.feedback(o), 1);
    }
    const out = await this.batchedTalker.forward(embeds, width, real);
    const V = this.m.talker.vocab;
    const size0 = codebookSizeOf(this.m, 0);
    for (let r = 1; r < this.batch; r++) {
      if (!this.live(r)) continue;
      const src = this.gathered(r);
      const o = this.others[r - 1];
      o.frame = [argmax(out.logits.subarray(src * V, (src + 1) * V), size0)]; // EOS and special ids lie at size0 and up
      o.hidden = (out.hidden as Float32Array).slice(src * h, (src + 1) * h);
    }
    const src0 = this.gathered(0);
    return { logits: out.logits.slice(src0 * V, (src0 + 1) * V), hidden: (out.hidden as Float32Array).slice(src0 * h, (src0 + 1) * h) };
  }

  /** Row o's talker input at a decode step: its previous frame's codes summed, plus its text conditioning. */
  private feedback(o: OtherRow): Float32Array {
    const x = this.table.feedback(o.frame);
    if (o.conditioning) this.table.addText(x, o.conditioning.ids[this.step - 2] ?? o.conditioning.pad);
    return x;
  }

  private async cpStep(row0: Float32Array, n: number, extra?: Feeds): Promise<DecoderOutput> {
    this.codebook++;
    const { rows } = this.batchedCp;
    const h = this.table.hidden;
    const embeds = new Float32Array(rows * n * h);
    const real = new Uint8Array(rows * n);
    embeds.set(row0);
    real.fill(1, 0, n);
    for (let r = 1; r < this.batch; r++) {
      if (!this.live(r)) continue;
      const o = this.others[r - 1];
      const cb = this.codebook;
      // The first run is the 2-position prefill (talker hidden, code 0's embedding), then one position per codebook.
      if (cb === 1) {
        embeds.set(o.hidden, r * n * h);
        embeds.set(this.table.gather([this.table.codecRow(0, o.frame[0])]), (r * n + 1) * h);
      } else embeds.set(this.table.gather([this.table.codecRow(cb - 1, o.frame[cb - 1])]), r * n * h);
      real.fill(1, r * n, (r + 1) * n);
    }
    const out = await this.batchedCp.forward(embeds, n, real, extra);
    const V = this.m.codebookSize;
    for (let r = 1; r < this.batch; r++) {
      if (this.live(r)) this.others[r - 1].frame.push(argmax(out.logits.subarray(r * V, (r + 1) * V), codebookSizeOf(this.m, this.codebook)));
    }
    return { logits: out.logits.slice(0, V) };
  }
}
