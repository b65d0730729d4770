import type { DrillNetwork } from './feed-tap.js';
import { valuesOf, type TensorCopy } from './tensor-copy.js';

const firstValue = (t: TensorCopy | undefined): number | undefined => (t && t.data.length > 0 ? valuesOf(t)[0] : undefined);

/**
 * What a network input carries in the engine's loop (synthesize.ts, code-predictor-loop.ts, vocode.ts),
 * in words for the drill report. `feeds` are the run's own inputs (positions tell prefill from feedback).
 */
export function inputRole(network: DrillNetwork, name: string, step: number, feeds: Record<string, TensorCopy>): string | undefined {
  const kv = /^past_key_values\.(\d+)\.(key|value)$/.exec(name);
  if (kv) return `KV cache of layer ${kv[1]} (${kv[2]}s of earlier positions)`;
  if (name === 'attention_mask') return 'attention mask over the cached positions';
  if (name === 'position_ids') return 'positions of the fed tokens';
  if (network === 'talker' && name === 'inputs_embeds') {
    return step === 1 ? 'text token embeddings (prefill)' : "audio feedback: sum of the previous frame's code embeddings";
  }
  if (network === 'code-predictor') {
    if (name === 'generation_step') return 'codebook head index (codebook − 1)';
    if (name === 'inputs_embeds') {
      const positions = feeds.position_ids ? Array.from(valuesOf(feeds.position_ids)) : [];
      const what = (p: number): string => (p === 0 ? "talker's last hidden state" : p === 1 ? 'embedding of code 0' : `embedding of codebook ${p - 1}'s code`);
      return positions.length > 0 ? positions.map(what).join(' + ') : undefined;
    }
  }
  if (network === 'vocoder') {
    if (name === 'audio_codes') return `codes of the decoded frames (${firstValue(feeds.context_frames) ?? 0} of them left context)`;
    if (name === 'noise') return 'noise source samples';
    if (name === 'phase0') return 'oscillator phase carried from the previous chunk';
    if (name === 'context_frames') return 'number of left-context frames';
  }
  return undefined;
}

/** Which run of the step this is, in words (a step runs the code predictor once per codebook). */
export function runLabel(network: DrillNetwork, feeds: Record<string, TensorCopy>): string {
  if (network === 'vocoder') {
    const frames = feeds.audio_codes?.dims[1];
    return `vocoder over ${frames ?? '?'} frames (${firstValue(feeds.context_frames) ?? 0} left context)`;
  }
  const positions = feeds.position_ids ? Array.from(valuesOf(feeds.position_ids)) : [];
  const at = positions.length > 1 ? `positions ${positions[0]}..${positions[positions.length - 1]}` : `position ${positions[0] ?? '?'}`;
  if (network === 'code-predictor') {
    const head = firstValue(feeds.generation_step);
    return `code predictor, ${at}, head for codebook ${head === undefined ? '?' : head + 1}`;
  }
  return `talker, ${at}`;
}
