import { join, resolve, sep } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { TokenizerInfo } from '../../common/api/bundle-info.js';
import { BundleError, InputError } from '../../common/errors.js';
import { readChecked, type SizeLimit } from '../fs/read-checked.js';
import { jsonSyntaxMessage } from './json-syntax.js';
import type { BundleManifest, TextSection } from './manifest.js';

export interface TextTokenizer {
  readonly info: TokenizerInfo;
  /** The text's ids, without `text.bos`; an InputError for a piece of text that has no id. */
  encode(text: string): number[];
}

/** The file bytes that identify the tokenizer, for the bundle hash (none for byte-level). */
export interface LoadedTokenizer {
  tokenizer: TextTokenizer;
  file?: { name: string; bytes: Uint8Array };
}

function byteTokenizer(text: Extract<TextSection, { tokenizer: 'byte' }>, toEncoder: boolean): TextTokenizer {
  const encoder = new TextEncoder();
  const where = toEncoder ? 'read by the encoder' : 'placed by the talker.prefill template';
  return {
    info: { kind: 'byte', summary: `byte-level: UTF-8 bytes (ids 0..255) ${text.bos === undefined ? where : `after BOS ${text.bos}`}`, limit: text.maxBytes, unit: 'UTF-8 bytes', limitField: 'text.maxBytes' },
    encode: (s) => [...encoder.encode(s)],
  };
}

/**
 * The part of @huggingface/tokenizers' Tokenizer used here, typed by hand: its .d.ts files import
 * each other without extensions, which NodeNext resolution cannot follow, so the import is untyped.
 * `ids` holds undefined for a token outside the vocabulary when the model has no unk_token.
 */
interface HfTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: (number | undefined)[]; tokens: (string | undefined)[] };
  /** Vocabulary and added tokens, token -> id (get_vocab walks the id array, holes included). */
  model: HfModel;
}
/** The model turns pre-tokenized pieces into vocabulary tokens; `unk_token` is null/undefined when it has none. */
interface HfModel {
  tokens_to_ids: Map<string, number>;
  unk_token?: string | null;
  encode(pieces: string[]): (string | undefined)[];
}
const HfTokenizerClass = Tokenizer as new (tokenizerJson: object, tokenizerConfig: object) => HfTokenizer;

const MODEL_TYPES = ['BPE', 'WordPiece', 'Unigram'];

interface SpecialToken {
  ids?: unknown;
  tokens?: unknown;
}
interface PostProcessor {
  type?: unknown;
  special_tokens?: Record<string, SpecialToken>;
  processors?: PostProcessor[];
}

/**
 * Special tokens a TemplateProcessing post-processor (alone or in a Sequence) inserts whose ids in the
 * template differ from the vocabulary's. The Rust library inserts the template's ids; the JS library
 * looks the token up and falls back to unk, so the two would disagree: refused, not guessed.
 */
function templateMismatches(processor: PostProcessor | null | undefined, vocab: Map<string, number>): string[] {
  if (!processor) return [];
  if (processor.type === 'Sequence') return (processor.processors ?? []).flatMap((p) => templateMismatches(p, vocab));
  if (processor.type !== 'TemplateProcessing') return [];
  const found: string[] = [];
  for (const [name, special] of Object.entries(processor.special_tokens ?? {})) {
    const ids = Array.isArray(special.ids) ? special.ids : [];
    const tokens = Array.isArray(special.tokens) ? special.tokens : [];
    tokens.forEach((token, i) => {
      const inVocab = typeof token === 'string' ? vocab.get(token) : undefined;
      if (inVocab !== ids[i]) found.push(`"${name}" has id ${JSON.stringify(ids[i])} in the template but ${inVocab === undefined ? 'is not in the vocabulary or added_tokens' : `id ${inVocab} in the vocabulary`}`);
    });
  }
  return found;
}

/** Not a vocabulary entry (it holds NULs), so it never has an id. */
const NO_ID_MARK = '\u0000no id\u0000';

/**
 * Makes the model refuse a pre-tokenized piece it cannot cover. Without an unk_token the library's BPE
 * drops such a piece silently (WordPiece leaves undefined, Unigram an out-of-vocabulary character), and
 * its encodings carry no offsets to notice the gap afterwards. So the model's own encode is wrapped:
 * each piece alone (every model encodes pieces independently, so the ids are unchanged), with a mark
 * standing in for the missing unk_token, and any token without an id names its piece.
 */
function refusePiecesWithoutId(model: HfModel, file: string): void {
  const encodePieces = model.encode.bind(model);
  const unk = model.unk_token;
  if (unk == null) model.unk_token = NO_ID_MARK;
  const why = unk == null ? 'the tokenizer has no unk_token' : `its unk_token "${unk}" is not in the vocabulary either`;
  model.encode = (pieces) =>
    pieces.flatMap((piece) => {
      const tokens = encodePieces([piece]);
      const missing = tokens.findIndex((t) => t === undefined || !model.tokens_to_ids.has(t));
      if (missing < 0 && (tokens.length > 0 || piece.length === 0)) return tokens as string[];
      const part = tokens[missing];
      const what = part === undefined || part === NO_ID_MARK || part === unk || part === piece ? '' : ` (its part "${part}")`;
      throw new InputError(`text: the piece "${piece}"${what} has no id in ${file} (not in its vocabulary, and ${why})`, 'text');
    });
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Largest tokenizer.json read (Qwen3's is 11 MB; the largest on the Hub are ~100 MB). */
const MAX_TOKENIZER: SizeLimit = { bytes: 256 * 2 ** 20, words: 'the 256 MiB a tokenizer.json may have' };

/**
 * Reads the bundle's text tokenizer. A tokenizer.json is opened with @huggingface/tokenizers (the
 * file alone, as the Rust `Tokenizer::from_file` does) and every id of its vocabulary must be a row of
 * the talker's text embedding, which holds `embed.codecRowOffset` rows (the codec rows follow).
 */
export async function loadTextTokenizer(dir: string, m: BundleManifest, manifestPath: string): Promise<LoadedTokenizer> {
  const text = m.text;
  if (text.tokenizer === 'byte') return { tokenizer: byteTokenizer(text, m.encoder !== undefined) };
  const path = join(dir, text.file);
  if (!resolve(path).startsWith(dir + sep)) throw new BundleError(`${manifestPath}: text.file "${text.file}" lies outside the bundle folder`, manifestPath);
  const fail = (problem: string): never => {
    throw new BundleError(`${path}: ${problem}`, path);
  };
  const bytes = await readChecked(path, {
    limit: MAX_TOKENIZER,
    inside: { dir, words: 'the bundle folder' },
    what: 'tokenizer.json named by bundle.json text.file',
    error: (message, where) => new BundleError(message, where),
  });
  let json: unknown;
  const jsonText = new TextDecoder().decode(bytes);
  try {
    json = JSON.parse(jsonText);
  } catch (error) {
    return fail(`tokenizer.json is not valid JSON: ${jsonSyntaxMessage(jsonText, error)}`);
  }
  const model = (json as { model?: { type?: unknown } } | null)?.model?.type;
  // Any other type (WordLevel included) falls to the library's "Legacy" model, whose ids differ from the Rust library's.
  if (typeof model !== 'string' || !MODEL_TYPES.includes(model)) {
    const found = model === undefined ? 'missing' : JSON.stringify(model);
    return fail(`model.type is ${found}; @huggingface/tokenizers 0.2 reads ${MODEL_TYPES.join(', ')} as the Rust library does`);
  }
  let lib: HfTokenizer;
  try {
    lib = new HfTokenizerClass(json as object, {});
    lib.encode('a', { add_special_tokens: text.addSpecialTokens ?? false });
  } catch (error) {
    return fail(`@huggingface/tokenizers refuses this tokenizer.json: ${errorText(error)}`);
  }
  const vocab = lib.model.tokens_to_ids;
  refusePiecesWithoutId(lib.model, text.file);
  if (vocab.size === 0) fail('the tokenizer has an empty vocabulary');
  const rows = m.embed.codecRowOffset;
  let top: [string, number] = ['', -1];
  for (const entry of vocab) if (entry[1] > top[1]) top = entry;
  if (top[1] >= rows) {
    fail(
      `token ids must be below ${rows}, the talker's text embedding rows (bundle.json embed.codecRowOffset), ` +
        `found id ${top[1]} ("${top[0]}") in a vocabulary of ${vocab.size} tokens`,
    );
  }
  if (text.addSpecialTokens) {
    const mismatches = templateMismatches((json as { post_processor?: PostProcessor | null }).post_processor, vocab);
    if (mismatches.length > 0) fail(`post_processor special tokens disagree with the vocabulary (bundle.json text.addSpecialTokens is true): ${mismatches.join('; ')}`);
  }
  const special = text.addSpecialTokens ? 'special tokens added by its post-processor' : 'no special tokens added';
  const bos = text.bos === undefined ? 'no BOS' : `BOS ${text.bos} prepended`;
  const info: TokenizerInfo = {
    kind: 'tokenizer.json',
    file: text.file,
    model: model,
    vocabSize: vocab.size,
    summary: `tokenizer.json: ${text.file} (${model}, ${vocab.size} tokens, ${special}, ${bos})`,
    limit: text.maxTokens,
    unit: 'tokens',
    limitField: 'text.maxTokens',
  };
  const encode = (s: string): number[] => {
    const { ids, tokens } = lib.encode(s, { add_special_tokens: text.addSpecialTokens ?? false });
    const bad = ids.findIndex((id) => !Number.isInteger(id));
    if (bad >= 0) {
      const piece = typeof tokens[bad] === 'string' ? `"${tokens[bad]}"` : `token ${bad + 1}`;
      throw new InputError(`text: ${piece} has no id in ${text.file} (not in its vocabulary, and the tokenizer has no unk_token)`, 'text');
    }
    return ids as number[];
  };
  return { tokenizer: { info, encode }, file: { name: text.file, bytes } };
}
