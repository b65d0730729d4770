/**
 * A small, real tokenizer.json (the layout the Rust `tokenizers` library writes): a BPE model over 13
 * ids with a Whitespace pre-tokenizer (`\w+|[^\w\s]+`). The expected ids in the tests are derived by
 * hand from this vocab and these merges, in merge-rank order:
 *   "hello": h e l l o -> (h e) he l l o -> (l l) he ll o -> (he ll) hell o -> (hell o) hello = [11]
 *   "world": no merge applies to w-o, o-r, r-l, l-d          -> w o r l d      = [5, 4, 6, 3, 7]
 *   "held":  h e l d -> (h e) he l d; no merge for he-l, l-d  -> he l d         = [8, 3, 7]
 *   "!": one pre-token = [12]; "z" is outside the vocab -> unk_token "[UNK]" = [0]
 */
export const BPE_VOCAB = { '[UNK]': 0, h: 1, e: 2, l: 3, o: 4, w: 5, r: 6, d: 7, he: 8, ll: 9, hell: 10, hello: 11, '!': 12 };
export const BPE_MERGES = ['h e', 'l l', 'he ll', 'hell o'];

interface TokenizerJsonOptions {
  vocab?: Record<string, number>;
  /** null: no unk_token. */
  unk?: string | null;
  /** Adds "<s>" (id 13) as a special token and a TemplateProcessing post-processor "<s> $A". */
  bosTemplate?: boolean;
  modelType?: string;
}

export function bpeTokenizerJson(options: TokenizerJsonOptions = {}): Record<string, unknown> {
  const bos = options.bosTemplate === true;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: bos ? [{ id: 13, content: '<s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }] : [],
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: bos
      ? {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
          special_tokens: { '<s>': { id: '<s>', ids: [13], tokens: ['<s>'] } },
        }
      : null,
    decoder: null,
    model: {
      type: options.modelType ?? 'BPE',
      dropout: null,
      unk_token: options.unk === null ? null : (options.unk ?? '[UNK]'),
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: options.vocab ?? BPE_VOCAB,
      merges: BPE_MERGES,
    },
  };
}
