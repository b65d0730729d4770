import { InputError } from '../common/errors.js';
import type { TextTokenizer } from './bundle/text-tokenizer.js';
import type { BundleManifest } from './bundle/manifest.js';
import { layOutTalkerText, type TalkerText } from './bundle/prefill-template.js';

export interface TextTokens {
  /** Without a prefill template: [text.bos if the bundle has one, the tokenizer's ids...]; with one: the tokenizer's ids. */
  ids: number[];
  /**
   * Number of frames to synthesize: round half up of (code points × framesPerChar), at least 1, at
   * most maxFrames (Math.round rounds .5 up; code points, not UTF-16 units).
   */
  frames: number;
  /** What the talker is fed: the prefill positions and the per-step text conditioning. */
  talker: TalkerText;
}

/** The optional request parts that fill a prefill template's slots. */
export interface TextSlots {
  speaker?: string;
  instruction?: string;
}

function encodeChecked(what: string, text: string, tokenizer: TextTokenizer): number[] {
  if (text.trim().length === 0) throw new InputError(`${what}: empty; give at least one non-space character`, what);
  const ids = tokenizer.encode(text);
  const { limit, unit, limitField, kind } = tokenizer.info;
  if (ids.length > limit) {
    const counted = kind === 'byte' ? '' : ` (${kind})`;
    throw new InputError(`${what}: ${ids.length} ${unit}${counted}, over this bundle's limit of ${limit} (bundle.json ${limitField})`, what);
  }
  if (ids.length === 0) throw new InputError(`${what}: the bundle's tokenizer (${tokenizer.info.summary}) gives no tokens for it`, what);
  return ids;
}

/**
 * The talker's text input: the bundle tokenizer's ids (UTF-8 bytes for byte-level) laid out as
 * `[text.bos, ids…]` or by the bundle's prefill template. Empty (or whitespace-only) text, text with
 * no tokens and text over the bundle's limit (`text.maxBytes` UTF-8 bytes or `text.maxTokens` tokens)
 * are refused with an InputError; so is an instruction, by the same rules.
 */
export function tokenizeText(text: string, m: BundleManifest, tokenizer: TextTokenizer, slots: TextSlots = {}): TextTokens {
  const ids = encodeChecked('text', text, tokenizer);
  const instruction = slots.instruction === undefined ? undefined : encodeChecked('instruction', slots.instruction, tokenizer);
  const chars = [...text].length;
  const frames = Math.min(m.maxFrames, Math.max(1, Math.round(chars * m.text.framesPerChar)));
  const talker = layOutTalkerText(m, ids, { ...(slots.speaker === undefined ? {} : { speaker: slots.speaker }), ...(instruction ? { instruction } : {}) });
  const withBos = !m.talker.prefill && m.text.bos !== undefined;
  return { ids: withBos ? [m.text.bos as number, ...ids] : ids, frames, talker };
}
