import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { BundleError, InputError } from '../../common/errors.js';
import type { BundleManifest, TextSection } from './manifest.js';

/** What a bundle's text tokenizer is, for `Engine.info()` and `parity bundle check`. */
export interface TokenizerInfo {
  kind: TextSection['tokenizer'];
  /** tokenizer.json only: the file (relative to the bundle folder), its model type and vocabulary size with added tokens. */
  file?: string;
  model?: string;
  vocabSize?: number;
  /** One line, e.g. "byte-level: UTF-8 bytes (ids 0..255) after BOS 256". */
  summary: string;
  /** Longest accepted text, counted in `unit`, and the bundle.json field that sets it. */
  limit: number;
  unit: 'UTF-8 bytes' | 'tokens';
  limitField: 'text.maxBytes' | 'text.maxTokens';
}

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

function byteTokenizer(text: Extract<TextSection, { tokenizer: 'byte' }>): TextTokenizer {
  const encoder = new TextEncoder();
  return {
    info: { kind: 'byte', summary: `byte-level: UTF-8 bytes (ids 0..255) after BOS ${text.bos}`, limit: text.maxBytes, unit: 'UTF-8 bytes', limitField: 'text.maxBytes' },
    encode: (s) => [...encoder.encode(s)],
  };
}

/**
 * The part of @huggingface/tokenizers' Tokenizer used here, typed by hand: its .d.ts files import
 * each other without extensions, which NodeNext resolution cannot follow, so the import is untyped.
 * `ids` holds undefined for a token outside the vocabulary when the model has no unk_token.
 */
interface HfTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: (number | undefined)[]; tokens: string[] };
  get_vocab(withAddedTokens: boolean): Map<string, number>;
}
const HfTokenizerClass = Tokenizer as new (tokenizerJson: object, tokenizerConfig: object) => HfTokenizer;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reads the bundle's text tokenizer. A tokenizer.json is opened with @huggingface/tokenizers (the
 * file alone, as the Rust `Tokenizer::from_file` does) and every id of its vocabulary must be a row of
 * the talker's text embedding, which holds `embed.codecRowOffset` rows (the codec rows follow).
 */
export async function loadTextTokenizer(dir: string, m: BundleManifest, manifestPath: string): Promise<LoadedTokenizer> {
  const text = m.text;
  if (text.tokenizer === 'byte') return { tokenizer: byteTokenizer(text) };
  const path = join(dir, text.file);
  if (!resolve(path).startsWith(dir + sep)) throw new BundleError(`${manifestPath}: text.file "${text.file}" lies outside the bundle folder`, manifestPath);
  const fail = (problem: string): never => {
    throw new BundleError(`${path}: ${problem}`, path);
  };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    return fail(`tokenizer.json named by bundle.json text.file cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    return fail(`tokenizer.json is not valid JSON: ${errorText(error)}`);
  }
  let lib: HfTokenizer;
  try {
    lib = new HfTokenizerClass(json as object, {});
    lib.encode('a', { add_special_tokens: text.addSpecialTokens ?? false });
  } catch (error) {
    return fail(`@huggingface/tokenizers refuses this tokenizer.json: ${errorText(error)}`);
  }
  const vocab = lib.get_vocab(true);
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
  const model = (json as { model?: { type?: unknown } }).model?.type;
  const modelName = typeof model === 'string' ? model : 'untyped';
  const special = text.addSpecialTokens ? 'special tokens added by its post-processor' : 'no special tokens added';
  const bos = text.bos === undefined ? 'no BOS' : `BOS ${text.bos} prepended`;
  const info: TokenizerInfo = {
    kind: 'tokenizer.json',
    file: text.file,
    model: modelName,
    vocabSize: vocab.size,
    summary: `tokenizer.json: ${text.file} (${modelName}, ${vocab.size} tokens, ${special}, ${bos})`,
    limit: text.maxTokens,
    unit: 'tokens',
    limitField: 'text.maxTokens',
  };
  const encode = (s: string): number[] => {
    const { ids, tokens } = lib.encode(s, { add_special_tokens: text.addSpecialTokens ?? false });
    const bad = ids.findIndex((id) => !Number.isInteger(id));
    if (bad >= 0) throw new InputError(`text: "${tokens[bad]}" has no id in ${text.file} (not in its vocabulary, and it has no unk_token)`, 'text');
    return ids as number[];
  };
  return { tokenizer: { info, encode }, file: { name: text.file, bytes } };
}
