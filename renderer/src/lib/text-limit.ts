import type { TokenizerInfo } from '../../../electron/common/api/bundle-info.js';

/** The header's short name for the bundle's text tokenizer, and the whole description for its title. */
export function tokenizerLabel(t: TokenizerInfo): { text: string; title: string } {
  const text = t.kind === 'byte' ? 'byte-level text' : `${t.file ?? 'tokenizer.json'}${t.model ? ` (${t.model})` : ''}`;
  return { text, title: `Text tokenizer: ${t.summary}; at most ${t.limit} ${t.unit} (bundle.json ${t.limitField})` };
}

export interface PromptLength {
  text: string;
  /** True when the prompt is known to be over the bundle's limit (synthesis will refuse it). */
  over: boolean;
  /** True when the prompt is empty or only whitespace (synthesis will refuse it). */
  empty: boolean;
}

/** The host's rule (PromptText: trimmed, at least one character): nothing but whitespace is no prompt. */
export function isBlankPrompt(prompt: string): boolean {
  return prompt.trim() === '';
}

/**
 * The prompt's length in the bundle's own unit. Bytes are counted here (UTF-8, as the engine counts
 * them); tokens only the bundle's tokenizer.json can count, in the engine, so the hint says the limit.
 */
export function promptLength(prompt: string, t: TokenizerInfo | undefined): PromptLength | undefined {
  if (!t) return undefined;
  const empty = isBlankPrompt(prompt);
  if (t.unit === 'UTF-8 bytes') {
    const n = new TextEncoder().encode(prompt).length;
    const issue = empty ? `: ${n === 0 ? 'empty' : 'only spaces'}, type some text to synthesize` : n > t.limit ? ': too long, shorten it to synthesize' : '';
    return { text: `${n} / ${t.limit} UTF-8 bytes${issue}`, over: n > t.limit, empty };
  }
  if (empty) return { text: `Empty prompt: type some text to synthesize (at most ${t.limit} tokens)`, over: false, empty };
  return { text: `At most ${t.limit} tokens, counted by ${t.file ?? 'the bundle’s tokenizer'} when you synthesize`, over: false, empty };
}
