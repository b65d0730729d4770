import { InputError } from '../common/errors.js';
import type { BundleManifest } from './bundle/manifest.js';

export interface TextTokens {
  /** [BOS, utf-8 bytes...] */
  ids: number[];
  /** Number of frames to synthesize: round(characters × framesPerChar), at least 1, at most maxFrames. */
  frames: number;
}

/**
 * Byte-level tokenizer: the UTF-8 bytes of the text after the BOS id. Empty (or whitespace-only) text
 * and text longer than `text.maxBytes` UTF-8 bytes are refused with an InputError.
 */
export function tokenizeText(text: string, m: BundleManifest): TextTokens {
  if (text.trim().length === 0) throw new InputError('text: empty; give at least one non-space character', 'text');
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > m.text.maxBytes) {
    throw new InputError(`text: ${bytes.length} UTF-8 bytes, over this bundle's limit of ${m.text.maxBytes} (bundle.json text.maxBytes)`, 'text');
  }
  const chars = [...text].length;
  const frames = Math.min(m.maxFrames, Math.max(1, Math.round(chars * m.text.framesPerChar)));
  return { ids: [m.text.bos, ...bytes], frames };
}
