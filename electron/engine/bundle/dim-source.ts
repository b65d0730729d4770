/**
 * Which bundle.json field fixes a dimension of a required tensor, so that a size mismatch can say
 * "expected 2 (bundle.json talker.kvHeads)" rather than a bare number. `label` is the export's label
 * ("talker eager-fp32", "code-predictor graph-fp16", "embed", "vocoder fp32").
 */
export function dimSource(label: string, tensor: string, dim: number): string | undefined {
  const network = label.split(' ')[0];
  if (dim === 0) return undefined; // batch: 1, or a batched export's own (bundle.json batch), fed by the engine
  if (network === 'embed') return tensor === 'inputs_embeds' && dim === 2 ? 'talker.hidden' : undefined;
  if (network === 'vocoder') return tensor === 'audio_codes' && dim === 2 ? 'codebooks' : undefined;
  const field = network === 'code-predictor' ? 'codePredictor' : network === 'talker' ? 'talker' : undefined;
  if (!field) return undefined;
  if (/^(past_key_values|present)\.\d+\.(key|value)$/.test(tensor)) {
    return [undefined, `${field}.kvHeads`, `${field}.maxPositions`, `${field}.headDim`][dim];
  }
  if (tensor === 'attention_mask' && dim === 1) return `${field}.maxPositions`;
  if ((tensor === 'inputs_embeds' || tensor === 'last_hidden_state') && dim === 2) return `${field}.hidden`;
  if (tensor === 'logits' && dim === 2) return field === 'talker' ? 'talker.vocab' : 'codebookSize';
  return undefined;
}

/** The bundle.json section of a decoder export's label ("code-predictor graph-fp32" -> "codePredictor"). */
export function decoderField(label: string): 'talker' | 'codePredictor' | undefined {
  const network = label.split(' ')[0];
  return network === 'talker' ? 'talker' : network === 'code-predictor' ? 'codePredictor' : undefined;
}
