import { BundleError, InputError } from '../../common/errors.js';
import { maxTextPositions, maxTextTokens, type BundleManifest, type PrefillPart } from './manifest.js';

/** One prefill position: the sum of a text embedding row and/or a codebook-0 codec row. */
export interface PrefillPosition {
  text?: number;
  codec?: number;
}

/** What the talker is fed for one request: the prefill positions, then the per-step text conditioning. */
export interface TalkerText {
  prefill: PrefillPosition[];
  /**
   * Text ids added to decode steps 2, 3, … in order (the trailing tokens, then `end`); past the end,
   * `pad`. Undefined when the bundle has no text conditioning.
   */
  conditioning?: { ids: number[]; pad: number };
}

/** The optional parts of a request that fill the template's slots. */
export interface PrefillSlots {
  speaker?: string;
  /** The instruction's token ids (tokenized like the text). */
  instruction?: number[];
}

/**
 * Lays out the talker's input for `tokens` (the tokenizer's ids of the text). Without a template:
 * `[text.bos if any, tokens…]`, text rows only. With `talker.prefill`: the template's parts in order
 * (`tokens: "first"` leaves the rest of the text to the conditioning). A slot with nothing to fill is
 * left out; a speaker the bundle does not name is an InputError listing the ones it has.
 */
export function layOutTalkerText(m: BundleManifest, tokens: readonly number[], slots: PrefillSlots = {}): TalkerText {
  const template = m.talker.prefill?.template;
  if (!template) {
    for (const slot of ['speaker', 'instruction'] as const) {
      if (slots[slot] !== undefined) throw new InputError(`${slot}: this bundle has no prefill template (bundle.json talker.prefill), so nowhere to put it`, slot);
    }
  }
  let trailing: number[] = [];
  const prefill: PrefillPosition[] = [];
  if (!template) {
    if (m.text.bos !== undefined) prefill.push({ text: m.text.bos });
    for (const t of tokens) prefill.push({ text: t });
  } else {
    for (const slot of ['speaker', 'instruction'] as const) {
      if (slots[slot] !== undefined && !template.some((part) => 'slot' in part && part.slot === slot)) {
        throw new InputError(`${slot}: this bundle's prefill template has no ${slot} slot (bundle.json talker.prefill.template)`, slot);
      }
    }
    for (const part of template) {
      if ('tokens' in part) {
        const placed = part.tokens === 'all' ? tokens : tokens.slice(0, 1);
        for (const t of placed) prefill.push(part.codec === undefined ? { text: t } : { text: t, codec: part.codec });
        trailing = tokens.slice(placed.length);
      } else if ('slot' in part) {
        if (part.slot === 'speaker' && slots.speaker !== undefined) prefill.push({ ...(part.text === undefined ? {} : { text: part.text }), codec: speakerCode(m, slots.speaker) });
        if (part.slot === 'instruction') for (const t of slots.instruction ?? []) prefill.push({ text: t });
      } else prefill.push({ ...part });
    }
  }
  const c = m.talker.textConditioning;
  if (!c) return { prefill };
  return { prefill, conditioning: { ids: c.end === undefined ? trailing : [...trailing, c.end], pad: c.pad } };
}

function speakerCode(m: BundleManifest, speaker: string): number {
  const speakers = m.talker.prefill?.speakers ?? {};
  const code = speakers[speaker];
  if (code !== undefined) return code;
  const have = Object.keys(speakers);
  throw new InputError(`speaker "${speaker}": this bundle names ${have.length ? have.map((s) => `"${s}"`).join(', ') : 'no speakers'} (bundle.json talker.prefill.speakers)`, 'speaker');
}

/** Positions a template takes at most, with the text and the instruction `longest` tokens each. */
export function templatePositions(template: readonly PrefillPart[], longest: number): number {
  let n = 0;
  for (const part of template) {
    if ('tokens' in part) n += part.tokens === 'all' ? longest : 1;
    else if ('slot' in part) n += part.slot === 'speaker' ? 1 : longest;
    else n += 1;
  }
  return n;
}

/** The longest prefill the bundle can be asked for, and how it is counted (for the maxPositions rule). */
export function maxPrefillPositions(m: BundleManifest): { positions: number; terms: string } {
  const template = m.talker.prefill?.template;
  const limitField = m.text.tokenizer === 'byte' ? 'text.maxBytes' : 'text.maxTokens';
  if (!template) return { positions: maxTextPositions(m.text), terms: m.text.bos === undefined ? limitField : `1 + ${limitField}` };
  const longest = maxTextTokens(m.text);
  const positions = templatePositions(template, longest);
  return { positions, terms: `the talker.prefill template at its longest (${positions} positions, text and instruction ${longest} tokens each)` };
}

/** One broken rule of a template or conditioning, on its bundle.json field (dotted, from `talker.`). */
export interface TalkerTextProblem {
  field: string;
  message: string;
}

/** What the template and conditioning rules are checked against. */
export interface TalkerTextLimits {
  prefill?: { template: PrefillPart[]; speakers?: Record<string, number> };
  textConditioning?: { pad: number; end?: number };
  /** Text ids are below this (embed.codecRowOffset). */
  textRows: number;
  /** Codec ids are below this (embed.codecRowsPerCodebook). */
  codecRows: number;
  textBos?: number;
  byteText: boolean;
}

/**
 * Rules of the template and the conditioning: exactly one `tokens` part, `tokens: "first"` only with
 * conditioning (else the rest of the text never reaches the talker), text ids below the text rows,
 * codec ids below codecRowsPerCodebook, no `text.bos` beside a template (the template places special
 * ids itself), and byte-level text without a template needs `text.bos`.
 */
export function talkerTextProblems(t: TalkerTextLimits): TalkerTextProblem[] {
  const found: TalkerTextProblem[] = [];
  const add = (field: string, message: string): void => {
    found.push({ field, message });
  };
  const textId = (field: string, id: number | undefined): void => {
    if (id !== undefined && id >= t.textRows) add(field, `${field} (${id}) must be a text embedding row (< embed.codecRowOffset ${t.textRows})`);
  };
  const codecId = (field: string, id: number | undefined): void => {
    if (id !== undefined && id >= t.codecRows) add(field, `${field} (${id}) must be a codec row (< embed.codecRowsPerCodebook ${t.codecRows})`);
  };
  const p = t.prefill;
  if (p) {
    if (t.textBos !== undefined) add('text.bos', `text.bos (${t.textBos}) and talker.prefill are both set: the template places the special ids itself; leave text.bos out`);
    const tokenParts = p.template.filter((part) => 'tokens' in part).length;
    if (tokenParts !== 1) add('talker.prefill.template', `talker.prefill.template must place the text exactly once (one {"tokens": …} part), found ${tokenParts}`);
    const first = p.template.some((part) => 'tokens' in part && part.tokens === 'first');
    if (first && !t.textConditioning) {
      add('talker.prefill.template', 'talker.prefill.template places only the first text token ({"tokens": "first"}) but talker.textConditioning is not set: the rest of the text would never reach the talker');
    }
    p.template.forEach((part, i) => {
      textId(`talker.prefill.template[${i}].text`, 'text' in part ? part.text : undefined);
      codecId(`talker.prefill.template[${i}].codec`, 'codec' in part ? part.codec : undefined);
    });
    for (const [name, code] of Object.entries(p.speakers ?? {})) codecId(`talker.prefill.speakers["${name}"]`, code);
  } else if (t.byteText && t.textBos === undefined) {
    add('text.bos', 'text.bos is required for byte-level text without a talker.prefill template');
  }
  if (t.textConditioning) {
    textId('talker.textConditioning.pad', t.textConditioning.pad);
    textId('talker.textConditioning.end', t.textConditioning.end);
  }
  return found;
}

/** The bundle's template and conditioning against the rest of bundle.json: a BundleError for the first broken rule. */
export function checkTalkerText(m: BundleManifest, where: string): void {
  const problem = talkerTextProblems({
    prefill: m.talker.prefill,
    textConditioning: m.talker.textConditioning,
    textRows: m.embed.codecRowOffset,
    codecRows: m.embed.codecRowsPerCodebook,
    textBos: m.text.bos,
    byteText: m.text.tokenizer === 'byte',
  })[0];
  if (problem) throw new BundleError(`${where}: ${problem.message}`, where);
}
