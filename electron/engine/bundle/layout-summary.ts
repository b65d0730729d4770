import { parseBatchKey } from './batch-support.js';
import { codebookSizeOf, type BundleManifest } from './manifest.js';

/**
 * One line per bundle.json field beyond the demo's shape, saying what the engine does with it (for
 * `parity bundle check` and Engine.info()); none for a bundle of the demo's shape (the built-in demo
 * has only the batch line).
 */
export function layoutLines(m: BundleManifest): string[] {
  const lines: string[] = [];
  const t = m.embed.table;
  if (t) lines.push(`embedding table: ${t.file} (${t.format}${t.tensor ? ` tensor "${t.tensor}"` : ''}, ${t.dtype}, ${t.rows} rows × ${m.talker.hidden}), read by rows`);
  const v0 = codebookSizeOf(m, 0);
  if (m.talker.specialIds) {
    const named = Object.keys(m.talker.specialIds.names ?? {}).length;
    lines.push(
      `talker logits: ${m.talker.vocab} = codebook 0's ${v0} codes + special ids ${v0}..${m.talker.vocab - 1}${named ? ` (${named} named)` : ''}, masked before sampling, ${m.specialCodes.eos === undefined ? 'no EOS id' : `EOS ${m.specialCodes.eos} included`} (${m.talker.codebooks === 'all' ? "codebook 0's EOS when on top, or " : ''}the frame count ends the loop)`,
    );
  }
  if (m.codebookSizes) lines.push(`codebook sizes: ${m.codebookSizes.join(', ')} (code predictor logits past a codebook's size masked)`);
  const p = m.codePredictor?.projection;
  if (p) lines.push(`code predictor input: ${p.from} wide, projected to its hidden ${p.to} inside its exports`);
  const prefill = m.talker.prefill;
  if (prefill) {
    const slots = prefill.template.flatMap((part) => ('slot' in part ? [part.slot] : []));
    const speakers = Object.keys(prefill.speakers ?? {});
    const slotText = slots.map((s) => (s === 'speaker' ? `speaker (${speakers.length ? speakers.join(', ') : 'none named'})` : s)).join(', ');
    lines.push(`prefill: template of ${prefill.template.length} parts${slots.length ? `; slots: ${slotText}` : ''}`);
  }
  const c = m.talker.textConditioning;
  if (c) lines.push(`text conditioning: each decode step adds the next trailing text token${c.end === undefined ? '' : `, then ${c.end}`}, then pad ${c.pad}`);
  if (m.encoder) lines.push(`encoder: run once on the text's ids (at most ${m.encoder.maxPositions}); its output feeds every talker step`);
  if (m.talker.codebooks === 'all') lines.push(`talker logits: all ${m.codebooks} codebooks per step (${m.talker.vocab} each), no code predictor; codebook 0's EOS ${m.specialCodes.eos ?? '(none)'} ends the take when it is the top id`);
  if (m.codebookDelays) lines.push(`delay pattern: codebook k of frame f at step f + [${m.codebookDelays.join(', ')}][k]; BOS ${m.specialCodes.bos} before a codebook's first frame, EOS then PAD ${m.specialCodes.pad} after its last`);
  if (m.batch) lines.push(batchLine(m.batch));
  return lines;
}

/** "batch=N: eager-fp32 (any N); graph-fp32 at batch buckets 2, 4, 8 (a graph run pads its batch to the next)". */
function batchLine(b: NonNullable<BundleManifest['batch']>): string {
  const keys = Object.keys(b.talker).map(parseBatchKey);
  const eager = keys.filter((k) => k.preset === 'eager').map((k) => `eager-${k.precision} (any N)`);
  const graph = [...new Set(keys.filter((k) => k.preset === 'graph').map((k) => k.precision))].map((p) => `graph-${p} at batch buckets ${(b.graphBuckets ?? []).join(', ')}`);
  return `batch=N: ${[...eager, ...graph].join('; ')}${graph.length ? ' (a graph run pads its batch to the smallest bucket ≥ N)' : ''}`;
}
