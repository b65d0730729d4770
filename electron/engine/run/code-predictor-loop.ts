import type { LogitStats } from '../../common/trace/step-record.js';
import { logitStats, countNonFinite } from '../../common/trace/logit-stats.js';
import { i64Tensor, type Feeds } from '../ort-session.js';
import type { DecoderRunner } from './decoder-runners.js';
import type { EmbeddingTable } from './embedding-table.js';

/** generation_step feeds ([1] = head index), made once: their data never changes, so runs share them. */
const stepFeeds: Feeds[] = [];
const stepFeed = (head: number): Feeds => (stepFeeds[head] ??= { generation_step: i64Tensor(BigInt64Array.of(BigInt(head)), [1]) });

export interface CodePredictorFrame {
  /** codes[1..Q-1] of the frame (index 0 is the talker's code 0, copied in). */
  codes: number[];
  logits: LogitStats[];
  nan: number;
  inf: number;
}

/**
 * The code predictor as an explicit KV-cached loop (no generic generate()): a 2-position prefill
 * (talker hidden state, embedding of code 0) yields codebook 1, then Q-2 single-position steps, each
 * fed the embedding of the previous code from that codebook's own table and read through that
 * codebook's own head (generation_step = codebook - 1).
 */
export async function predictCodes(
  cp: DecoderRunner,
  table: EmbeddingTable,
  q: number,
  talkerHidden: Float32Array,
  code0: number,
  pick: (logits: Float32Array, codebook: number) => number,
  poison: boolean,
): Promise<CodePredictorFrame> {
  const codes = [code0];
  const stats: LogitStats[] = [];
  let nan = 0;
  let inf = 0;
  cp.reset();
  const prefill = new Float32Array(2 * table.hidden);
  prefill.set(talkerHidden);
  prefill.set(table.gather([table.codecRow(0, code0)]), table.hidden);
  if (poison) prefill[0] = NaN; // fault nan@code-predictor: the NaN enters this frame's prefill
  // Each step's input row is rewritten in one buffer: every runner copies its input before the run
  // resolves (graph: into its static tensor; eager: ORT reads it during the run; the drill tap copies).
  const row = new Float32Array(table.hidden);
  let input: Float32Array = prefill;
  let n = 2;
  for (let cb = 1; cb < q; cb++) {
    const { logits } = await cp.forward(input, n, stepFeed(cb - 1));
    const c = countNonFinite(logits);
    nan += c.nan;
    inf += c.inf;
    stats.push(logitStats(logits));
    const code = pick(logits, cb);
    codes.push(code);
    input = table.rowInto(table.codecRow(cb, code), row);
    n = 1;
  }
  return { codes, logits: stats, nan, inf };
}
