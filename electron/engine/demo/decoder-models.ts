import { GraphBuilder } from '../onnx-builder/graph-builder.js';
import { Ops } from '../onnx-builder/ops.js';
import { buildDecoder, type DecoderMode } from './decoder-graph.js';
import { codecRowsPerCodebook, DEMO, talkerVocabOf, type DemoConfig } from './demo-config.js';
import { ExportGraphBuilder } from './export-names.js';
import { uniformWeights } from './weight-rng.js';

export type Precision = 'fp32' | 'fp16';

/** Weight generator for one network: names are prefixed so talker and code predictor differ. */
export function weightSource(seed: number, network: string) {
  return (name: string, count: number, std: number, mean: number): Float32Array => {
    const v = uniformWeights(seed, `${network}/${name}`, count, std);
    if (mean !== 0) for (let i = 0; i < v.length; i++) v[i] += mean;
    return v;
  };
}

const floatOf = (p: Precision): 'float32' | 'float16' => (p === 'fp16' ? 'float16' : 'float32');

/** A batched export's batch: `batch_size` (eager, symbolic) or a graph bucket; absent: the batch-1 export. */
export type Batch = number | 'batch_size';
const batchSuffix = (batch?: Batch): string => (batch === undefined ? '' : batch === 'batch_size' ? '-batch' : `-batch${batch}`);

/**
 * Talker: inputs_embeds [1, S, hidden] -> logits [1, S, codebookSize + 1] (codebook 0 plus EOS; or
 * talkerVocab, special codec ids included) and last_hidden_state [1, S, hidden] (final-normed, fed to the code predictor).
 */
export function buildTalker(seed: number, mode: DecoderMode, precision: Precision, overflow = false, cfg: DemoConfig = DEMO, batch?: Batch): Uint8Array {
  const spec = cfg.talker;
  const g = new ExportGraphBuilder(`talker-${mode}-${precision}${overflow ? '-overflow' : ''}${batchSuffix(batch)}`, mode);
  const o = new Ops(g, floatOf(precision), weightSource(seed, 'talker'));
  const { hidden } = buildDecoder(o, spec, { mode, overflow: overflow ? cfg.overflow : undefined, ...(batch === undefined ? {} : { batch }) });
  const vocab = talkerVocabOf(cfg);
  const logits = o.matmul(hidden, o.param('lm_head.weight', [spec.hidden, vocab], 1 / Math.sqrt(spec.hidden)));
  const S = mode === 'eager' ? 'sequence_length' : 1;
  g.output(logits, 'logits', o.float, [batch ?? 1, S, vocab]);
  g.output(hidden, 'last_hidden_state', o.float, [batch ?? 1, S, spec.hidden]);
  return g.toBytes('TTS Parity Studio demo talker (untrained, fixed-seed weights)');
}

/**
 * Code predictor: position 0 = talker hidden, position 1 = embedding of code 0, then one position per
 * codebook; generation_step [1] (0-based head index: codebook j uses head j-1) picks the step's head.
 * logits [1, S, codebookSize].
 */
export function buildCodePredictor(seed: number, mode: DecoderMode, precision: Precision, cfg: DemoConfig = DEMO, batch?: Batch): Uint8Array {
  const spec = cfg.codePredictor;
  const g = new ExportGraphBuilder(`code-predictor-${mode}-${precision}${batchSuffix(batch)}`, mode);
  const o = new Ops(g, floatOf(precision), weightSource(seed, 'code_predictor'));
  const step = g.input('generation_step', 'int64', [1]);
  const inputHidden = cfg.codePredictorProjection ? cfg.talker.hidden : undefined;
  const { hidden } = buildDecoder(o, spec, { mode, ...(inputHidden === undefined ? {} : { inputHidden }), ...(batch === undefined ? {} : { batch }) });
  const heads = o.param('lm_heads.weight', [cfg.codebooks - 1, spec.hidden, cfg.codebookSize], 1 / Math.sqrt(spec.hidden));
  const head = g.node('Gather', [heads, step], { attrs: { axis: 0 }, name: 'lm_heads.select' });
  const logits = o.matmul(hidden, head);
  g.output(logits, 'logits', o.float, [batch ?? 1, mode === 'eager' ? 'sequence_length' : 1, cfg.codebookSize]);
  return g.toBytes('TTS Parity Studio demo code predictor (untrained, fixed-seed weights)');
}

/** Row of the shared embedding table for a codec code: text rows first, then codebook by codebook. */
export function codecRow(codebook: number, code: number, cfg: DemoConfig = DEMO): number {
  return cfg.textVocab + codebook * codecRowsPerCodebook(cfg) + code;
}

/** Each codec row has std 1/sqrt(Q), so the audio feedback (a sum of Q rows) has std about 1. */
const EMBED_STD = { text: 1, codec: (cfg: DemoConfig) => 1 / Math.sqrt(cfg.codebooks) };

/**
 * The values of buildEmbed's table, [textVocab + Q·codecRowsPerCodebook, hidden] float32 (text rows,
 * then the codec rows): the same weights, for a bundle that ships the table as a file (embed.table).
 */
export function embedTableValues(seed: number, cfg: DemoConfig): Float32Array {
  const w = weightSource(seed, 'embed');
  const h = cfg.talker.hidden;
  const text = w('text_embedding.weight', cfg.textVocab * h, EMBED_STD.text, 0);
  const codec = w('codec_embedding.weight', cfg.codebooks * codecRowsPerCodebook(cfg) * h, EMBED_STD.codec(cfg), 0);
  const out = new Float32Array(text.length + codec.length);
  out.set(text);
  out.set(codec, text.length);
  return out;
}

/**
 * Embedding table shared by the text tokens (rows 0..textVocab-1: bytes, then BOS) and the Q codec tables (step-specific
 * embeddings of the code predictor, and the talker's audio feedback): input_ids [1, S] -> inputs_embeds.
 */
export function buildEmbed(seed: number, cfg: DemoConfig = DEMO): Uint8Array {
  const g = new GraphBuilder('embed');
  const o = new Ops(g, 'float32', weightSource(seed, 'embed'));
  const ids = g.input('input_ids', 'int64', [1, 'sequence_length']);
  const rowsText = cfg.textVocab;
  const rowsCodec = cfg.codebooks * codecRowsPerCodebook(cfg);
  const text = o.param('text_embedding.weight', [rowsText, cfg.talker.hidden], EMBED_STD.text);
  const codec = o.param('codec_embedding.weight', [rowsCodec, cfg.talker.hidden], EMBED_STD.codec(cfg));
  const table = g.node('Concat', [text, codec], { attrs: { axis: 0 } });
  const out = g.node('Gather', [table, ids], { attrs: { axis: 0 } });
  g.output(out, 'inputs_embeds', 'float32', [1, 'sequence_length', cfg.talker.hidden]);
  return g.toBytes('TTS Parity Studio demo embedding table');
}
