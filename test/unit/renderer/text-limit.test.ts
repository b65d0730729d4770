import { describe, expect, it } from 'vitest';
import type { BundleInfo, TokenizerInfo } from '../../../electron/common/api/bundle-info.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { isBlankPrompt, promptLength, tokenizerLabel } from '../../../renderer/src/lib/text-limit.js';
import { formSelectors } from '../../../renderer/src/store/job/form-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

// As Engine.info() gives them (electron/engine/bundle/text-tokenizer.ts): the demo's byte-level text
// (docs/bundle-format.md: 128 bytes after BOS 256) and a tokenizer.json bundle (the BPE test copy).
const byte: TokenizerInfo = { kind: 'byte', summary: 'byte-level: UTF-8 bytes (ids 0..255) after BOS 256', limit: 128, unit: 'UTF-8 bytes', limitField: 'text.maxBytes' };
const bpe: TokenizerInfo = {
  kind: 'tokenizer.json',
  file: 'tokenizer.json',
  model: 'BPE',
  vocabSize: 13,
  summary: 'tokenizer.json: tokenizer.json (BPE, 13 tokens, no special tokens added, BOS 256 prepended)',
  limit: 128,
  unit: 'tokens',
  limitField: 'text.maxTokens',
};

describe('the bundle’s text tokenizer in the studio', () => {
  it('names the tokenizer, with its summary and limit in the title', () => {
    expect(tokenizerLabel(byte)).toEqual({ text: 'byte-level text', title: 'Text tokenizer: byte-level: UTF-8 bytes (ids 0..255) after BOS 256; at most 128 UTF-8 bytes (bundle.json text.maxBytes)' });
    expect(tokenizerLabel(bpe).text).toBe('tokenizer.json (BPE)');
    expect(tokenizerLabel(bpe).title).toMatch(/13 tokens.*; at most 128 tokens \(bundle\.json text\.maxTokens\)$/);
  });

  it('counts a byte-level prompt in UTF-8 bytes, as the engine does (é is 2 bytes, 🙂 is 4)', () => {
    expect(promptLength('Hello', byte)).toEqual({ text: '5 / 128 UTF-8 bytes', over: false, empty: false });
    expect(promptLength('é🙂', byte)!.text).toBe('6 / 128 UTF-8 bytes');
    // 64 × "é" = 64 characters but 128 bytes: at the limit; one more byte is over.
    expect(promptLength('é'.repeat(64), byte)).toEqual({ text: '128 / 128 UTF-8 bytes', over: false, empty: false });
    expect(promptLength(`${'é'.repeat(64)}a`, byte)).toEqual({ text: '129 / 128 UTF-8 bytes: too long, shorten it to synthesize', over: true, empty: false });
  });

  it('for a tokenizer.json bundle says the limit in tokens and never guesses a count', () => {
    expect(promptLength('x'.repeat(500), bpe)).toEqual({ text: 'At most 128 tokens, counted by tokenizer.json when you synthesize', over: false, empty: false });
    expect(promptLength('Hello', undefined)).toBeUndefined();
  });

  it('a prompt over the byte limit blocks Synthesize with a reason; start() does not call the host', async () => {
    let calls = 0;
    const info = { tokenizer: byte } as unknown as BundleInfo;
    const store = createStudioStore({ bundleInfo: async () => info, compare: async () => (calls++, { jobId: 'j' }) } as unknown as StudioApi);
    await store.getState().loadBundle();
    store.getState().setForm({ text: 'a'.repeat(129) });
    expect(formSelectors.synthBlocked(store.getState())).toBe('Shorten the prompt to synthesize.');
    await store.getState().start();
    expect(calls).toBe(0);
    store.getState().setForm({ text: 'a'.repeat(128) });
    expect(formSelectors.synthBlocked(store.getState())).toBeUndefined();
  });

  it('an empty or whitespace-only prompt blocks Synthesize up front (the host trims it and refuses an empty one)', async () => {
    let calls = 0;
    const info = { tokenizer: byte } as unknown as BundleInfo;
    const store = createStudioStore({ bundleInfo: async () => info, compare: async () => (calls++, { jobId: 'j' }) } as unknown as StudioApi);
    await store.getState().loadBundle();
    for (const text of ['', '   ', '\n\t \u00a0']) {
      store.getState().setForm({ text });
      expect(formSelectors.synthBlocked(store.getState())).toBe('Type a prompt to synthesize (it is empty or only spaces).');
      await store.getState().start();
    }
    expect(calls).toBe(0);
    expect(promptLength('', byte)).toEqual({ text: '0 / 128 UTF-8 bytes: empty, type some text to synthesize', over: false, empty: true });
    // Three spaces are 3 bytes; U+00A0 is whitespace to String.prototype.trim, as to the host's zod .trim().
    expect(promptLength('   ', byte)).toEqual({ text: '3 / 128 UTF-8 bytes: only spaces, type some text to synthesize', over: false, empty: true });
    expect(promptLength(' ', bpe)).toEqual({ text: 'Empty prompt: type some text to synthesize (at most 128 tokens)', over: false, empty: true });
    expect(isBlankPrompt('\u00a0\n')).toBe(true);
    expect(isBlankPrompt(' a ')).toBe(false);
    store.getState().setForm({ text: ' Hi ' });
    expect(formSelectors.synthBlocked(store.getState())).toBeUndefined();
  });
});
