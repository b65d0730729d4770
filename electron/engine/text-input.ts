import { InputError } from '../common/errors.js';
import type { TextTokenizer } from './bundle/text-tokenizer.js';
import type { BundleManifest } from './bundle/manifest.js';

export interface TextTokens {
  /** [text.bos if the bundle has one, the tokenizer's ids...] */
  ids: number[];
  /** Number of frames to synthesize: round(characters × framesPerChar), at least 1, at most maxFrames. */
  frames: number;
}

/**
 * The talker's text prefill: `text.bos` (if any) then the bundle tokenizer's ids (UTF-8 bytes for
 * byte-level). Empty (or whitespace-only) text, text with no tokens and text over the bundle's limit
 * (`text.maxBytes` UTF-8 bytes or `text.maxTokens` tokens) are refused with an InputError.
 */
export function tokenizeText(text: string, m: BundleManifest, tokenizer: TextTokenizer): TextTokens {
  if (text.trim().length === 0) throw new InputError('text: empty; give at least one non-space character', 'text');
  const ids = tokenizer.encode(text);
  const { limit, unit, limitField, kind } = tokenizer.info;
  if (ids.length > limit) {
    const counted = kind === 'byte' ? '' : ` (${kind})`;
    throw new InputError(`text: ${ids.length} ${unit}${counted}, over this bundle's limit of ${limit} (bundle.json ${limitField})`, 'text');
  }
  if (ids.length === 0) throw new InputError(`text: the bundle's tokenizer (${tokenizer.info.summary}) gives no tokens for it`, 'text');
  const chars = [...text].length;
  const frames = Math.min(m.maxFrames, Math.max(1, Math.round(chars * m.text.framesPerChar)));
  return { ids: m.text.bos === undefined ? ids : [m.text.bos, ...ids], frames };
}
