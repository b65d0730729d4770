import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError, InputError } from '../../../../electron/common/errors.js';
import { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { loadTextTokenizer, type TextTokenizer } from '../../../../electron/engine/bundle/text-tokenizer.js';
import { DEMO } from '../../../../electron/engine/demo/demo-config.js';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { tokenizeText } from '../../../../electron/engine/text-input.js';
import { bpeTokenizerJson } from './tokenizer-fixtures.js';

let dir: string;
let demo: BundleManifest;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tokenizer-test-'));
  demo = BundleManifest.parse(JSON.parse(new TextDecoder().decode(demoBundleFiles().get('bundle.json'))));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type JsonText = Extract<BundleManifest['text'], { tokenizer: 'tokenizer.json' }>;

/** The demo manifest with its text switched to a tokenizer.json holding `content` (a string is written as is). */
async function withTokenizer(content: unknown, text: Partial<JsonText> = {}): Promise<{ m: BundleManifest; file: string }> {
  const file = `tok${n++}.json`;
  await writeFile(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content));
  const m = { ...demo, text: { tokenizer: 'tokenizer.json', file, bos: DEMO.textBos, framesPerChar: 0.9, maxTokens: 64, ...text } } as BundleManifest;
  return { m, file };
}

async function open(content: unknown, text: Partial<JsonText> = {}): Promise<{ m: BundleManifest; tok: TextTokenizer }> {
  const { m } = await withTokenizer(content, text);
  return { m, tok: (await loadTextTokenizer(dir, m, join(dir, 'bundle.json'))).tokenizer };
}

const inputError = (f: () => unknown): Error => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as Error;
  }
  throw new Error('expected an InputError');
};
const failure = (p: Promise<unknown>): Promise<Error> => p.then(() => new Error('expected a failure'), (e: unknown) => e as Error);

describe('tokenizer.json text (ids derived by hand in tokenizer-fixtures.ts)', () => {
  it('BPE merges by rank, unknown pieces become unk, text.bos first', async () => {
    const { m, tok } = await open(bpeTokenizerJson());
    expect(tok.encode('hello world!')).toEqual([11, 5, 4, 6, 3, 7, 12]);
    expect(tok.encode('held z')).toEqual([8, 3, 7, 0]);
    // 12 characters × 0.9 frames per character = 10.8 -> 11 frames
    const ids = [DEMO.textBos, 11, 5, 4, 6, 3, 7, 12];
    // Without a template the talker's prefill is those ids as text rows, and there is no conditioning.
    expect(tokenizeText('hello world!', m, tok)).toEqual({ ids, frames: 11, talker: { prefill: ids.map((text) => ({ text })) } });
  });

  it('addSpecialTokens runs the TemplateProcessing post-processor ("<s>" = 13) and no text.bos is prepended when none is given', async () => {
    const on = await open(bpeTokenizerJson({ bosTemplate: true }), { addSpecialTokens: true, bos: undefined });
    expect(tokenizeText('held', on.m, on.tok).ids).toEqual([13, 8, 3, 7]);
    const off = await open(bpeTokenizerJson({ bosTemplate: true }), { bos: undefined });
    expect(tokenizeText('held', off.m, off.tok).ids).toEqual([8, 3, 7]);
  });

  it('says which tokenizer it is', async () => {
    const { tok } = await open(bpeTokenizerJson());
    expect(tok.info).toMatchObject({ kind: 'tokenizer.json', model: 'BPE', vocabSize: 13, limit: 64, unit: 'tokens' });
    expect(tok.info.summary).toMatch(/^tokenizer\.json: tok\d+\.json \(BPE, 13 tokens, no special tokens added, BOS 256 prepended\)$/);
  });

  it('the text limit counts tokens: 7 tokens over maxTokens 6 is an InputError with both numbers', async () => {
    const { m, tok } = await open(bpeTokenizerJson(), { maxTokens: 6 });
    expect(inputError(() => tokenizeText('hello world!', m, tok)).message).toMatch(/^text: 7 tokens \(tokenizer\.json\), over this bundle's limit of 6 \(bundle\.json text\.maxTokens\)$/);
    expect(tokenizeText('hello world', m, tok).ids).toHaveLength(1 + 6);
  });

  it('text the tokenizer cannot map is an InputError, not a NaN id', async () => {
    // A tokenizer that gives no ids at all (e.g. a normalizer removing every character) is refused by tokenizeText.
    const { m, tok } = await open(bpeTokenizerJson({ unk: null }));
    expect(inputError(() => tokenizeText('!', m, { ...tok, encode: () => [] })).message).toMatch(/text: the bundle's tokenizer \(tokenizer\.json: .*\) gives no tokens for it/);
    // WordPiece without unk_token would leave a hole in the ids: the piece is named instead.
    const wp = await open({ ...bpeTokenizerJson(), model: { type: 'WordPiece', vocab: { a: 0, b: 1 }, continuing_subword_prefix: '##', max_input_chars_per_word: 100 } });
    expect(inputError(() => tokenizeText('a zz b', wp.m, wp.tok)).message).toMatch(/^text: the piece "zz" has no id in tok\d+\.json \(not in its vocabulary, and the tokenizer has no unk_token\)$/);
  });

  it('a piece BPE would drop without unk_token is an InputError naming it, not silently left out', async () => {
    // Whitespace pre-tokenizer: "hello xyz" -> pieces "hello", "xyz"; x, y, z are not in BPE_VOCAB,
    // and with unk: null the library's BPE would return [11] for the whole text.
    const { m, tok } = await open(bpeTokenizerJson({ unk: null }));
    const message = /^text: the piece "xyz" has no id in tok\d+\.json \(not in its vocabulary, and the tokenizer has no unk_token\)$/;
    expect(inputError(() => tokenizeText('hello xyz', m, tok)).message).toMatch(message);
    // A piece only partly covered ("held" is, "hez" is not: z has no id) is refused too.
    expect(inputError(() => tok.encode('held hez')).message).toMatch(/^text: the piece "hez" has no id/);
    expect(inputError(() => tok.encode('zz')).message).toMatch(/^text: the piece "zz" has no id/);
    // Covered text keeps the ids derived in tokenizer-fixtures.ts.
    expect(tok.encode('hello world!')).toEqual([11, 5, 4, 6, 3, 7, 12]);
  });

  it('an unk_token that is not in the vocabulary is named as the reason', async () => {
    const { tok } = await open(bpeTokenizerJson({ unk: '<unk>' }));
    expect(inputError(() => tok.encode('held z')).message).toMatch(/^text: the piece "z" has no id in tok\d+\.json \(not in its vocabulary, and its unk_token "<unk>" is not in the vocabulary either\)$/);
  });
});

describe('byte-level text is unchanged', () => {
  it('ids are BOS then the UTF-8 bytes; the limit counts bytes', async () => {
    const tok = (await loadTextTokenizer(dir, demo, 'bundle.json')).tokenizer;
    expect(tok.info).toMatchObject({ kind: 'byte', limit: 128, unit: 'UTF-8 bytes' });
    // "hé": h = 0x68, é = U+00E9 = C3 A9 in UTF-8
    expect(tokenizeText('hé', demo, tok).ids).toEqual([DEMO.textBos, 0x68, 0xc3, 0xa9]);
    expect(inputError(() => tokenizeText('x'.repeat(129), demo, tok)).message).toBe("text: 129 UTF-8 bytes, over this bundle's limit of 128 (bundle.json text.maxBytes)");
  });
});

describe('a bad tokenizer.json is a BundleError naming the file and the problem', () => {
  const expectBundleError = async (p: Promise<unknown>, pattern: RegExp): Promise<void> => {
    const err = await failure(p);
    expect(err).toBeInstanceOf(BundleError);
    expect(err.message).toMatch(pattern);
  };
  const load = (m: BundleManifest) => loadTextTokenizer(dir, m, join(dir, 'bundle.json'));

  it('missing file', async () => {
    const { m } = await withTokenizer(bpeTokenizerJson(), { file: 'absent.json' });
    await expectBundleError(load(m), /absent\.json: tokenizer\.json named by bundle\.json text\.file: cannot read \(no such file or folder\)$/);
  });

  it('outside the bundle folder', async () => {
    const { m } = await withTokenizer(bpeTokenizerJson(), { file: '../elsewhere.json' });
    await expectBundleError(load(m), /bundle\.json: text\.file "\.\.\/elsewhere\.json" lies outside the bundle folder$/);
  });

  it('not JSON', async () => {
    const { m, file } = await withTokenizer('{"model": ');
    await expectBundleError(load(m), new RegExp(`${file}: tokenizer\\.json is not valid JSON: `));
  });

  it('the library refuses it', async () => {
    const { decoder: _, ...noDecoder } = bpeTokenizerJson();
    const { m, file } = await withTokenizer(noDecoder);
    await expectBundleError(load(m), new RegExp(`${file}: @huggingface/tokenizers refuses this tokenizer\\.json: Tokenizer must contain a "decoder" property$`));
  });

  it('a model type the library would not read as the Rust library does (WordLevel)', async () => {
    const { m, file } = await withTokenizer(bpeTokenizerJson({ modelType: 'WordLevel' }));
    await expectBundleError(load(m), new RegExp(`${file}: model\\.type is "WordLevel"; @huggingface/tokenizers 0\\.2 reads BPE, WordPiece, Unigram`));
  });

  it('a vocabulary id that is not a row of the text embedding (demo: 257 rows)', async () => {
    const { m, file } = await withTokenizer(bpeTokenizerJson({ vocab: { '[UNK]': 0, h: 1, e: 2, l: 3, he: 257 } }));
    await expectBundleError(
      load(m),
      new RegExp(`${file}: token ids must be below 257, the talker's text embedding rows \\(bundle\\.json embed\\.codecRowOffset\\), found id 257 \\("he"\\) in a vocabulary of 5 tokens$`),
    );
  });

  it('a template special token whose id is not its vocabulary id (the Rust and JS libraries would disagree)', async () => {
    const json = bpeTokenizerJson({ bosTemplate: true }) as { added_tokens: unknown[]; post_processor: { special_tokens: Record<string, { ids: number[] }> } };
    json.added_tokens = []; // "<s>" is then only in the template, with id 13
    const { m, file } = await withTokenizer(json, { addSpecialTokens: true });
    await expectBundleError(
      load(m),
      new RegExp(`${file}: post_processor special tokens disagree with the vocabulary \\(bundle\\.json text\\.addSpecialTokens is true\\): "<s>" has id 13 in the template but is not in the vocabulary or added_tokens$`),
    );
    // Without addSpecialTokens the post-processor never runs, so the same file loads.
    await expect(load((await withTokenizer(json)).m)).resolves.toBeDefined();
    const wrongId = bpeTokenizerJson({ bosTemplate: true }) as typeof json;
    wrongId.post_processor.special_tokens['<s>'].ids = [12];
    await expectBundleError(load((await withTokenizer(wrongId, { addSpecialTokens: true })).m), /"<s>" has id 12 in the template but id 13 in the vocabulary$/);
  });
});
