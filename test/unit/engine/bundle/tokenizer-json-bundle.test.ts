import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { registerBundle } from '../../../../electron/cli/commands/bundle.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { DEMO } from '../../../../electron/engine/demo/demo-config.js';
import { Engine } from '../../../../electron/engine/engine.js';
import { demoEngine } from '../demo-bundle.js';
import { bpeTokenizerJson } from './tokenizer-fixtures.js';

// The demo bundle, and a copy whose text goes through a 13-token BPE tokenizer.json (ids 0..12, all
// below the demo's 257 text embedding rows) with the demo's BOS 256 in front.
const TEXT = 'hello world!';
let demo: { dir: string; engine: Engine; dispose: () => Promise<void> };
let tokDir: string;
let tok: Engine;
let n = 0;
const made: string[] = [];

async function variant(edit: (m: { text: Record<string, unknown> }) => void): Promise<string> {
  const dir = `${demo.dir}-v${n++}`;
  made.push(dir);
  await cp(tokDir, dir, { recursive: true });
  const m = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
  edit(m);
  await writeFile(join(dir, 'bundle.json'), JSON.stringify(m));
  return dir;
}

beforeAll(async () => {
  demo = await demoEngine('tokenizer-bundle-');
  tokDir = `${demo.dir}-tok`;
  made.push(tokDir);
  await cp(demo.dir, tokDir, { recursive: true });
  await writeFile(join(tokDir, 'tokenizer.json'), JSON.stringify(bpeTokenizerJson()));
  const m = JSON.parse(await readFile(join(tokDir, 'bundle.json'), 'utf8'));
  m.text = { tokenizer: 'tokenizer.json', file: 'tokenizer.json', bos: DEMO.textBos, framesPerChar: DEMO.framesPerChar, maxTokens: DEMO.maxTextBytes };
  await writeFile(join(tokDir, 'bundle.json'), JSON.stringify(m, null, 2) + '\n');
  tok = await Engine.open(tokDir);
});
afterAll(async () => {
  await tok?.close();
  await demo?.dispose();
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

const bytes = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const synth = (engine: Engine) => engine.synthesize({ text: TEXT, profile: parseProfile('eager'), seed: 1, sampling: GREEDY });

describe('a bundle whose text tokenizer is a tokenizer.json', () => {
  it('synthesizes the same bytes twice, and other bytes than byte-level tokens of the same text', async () => {
    const a = await synth(tok);
    const b = await synth(tok);
    expect(bytes(b.audio).equals(bytes(a.audio))).toBe(true);
    expect(b.codes).toEqual(a.codes);
    const byteLevel = await synth(demo.engine);
    // Same text, so the same frame count (round(12 × 0.9) = 11); only the prefill ids differ.
    expect(a.codes.length).toBe(byteLevel.codes.length);
    expect(bytes(a.audio).equals(bytes(byteLevel.audio))).toBe(false);
  });

  it('the tokenizer.json is part of the bundle hash, and info says which tokenizer it is', () => {
    expect(tok.info().hash).not.toBe(demo.engine.info().hash);
    expect(tok.info().tokenizer).toMatchObject({ kind: 'tokenizer.json', file: 'tokenizer.json', model: 'BPE', vocabSize: 13, limit: 128, unit: 'tokens' });
    expect(demo.engine.info().tokenizer).toMatchObject({ kind: 'byte', limit: 128, unit: 'UTF-8 bytes' });
  });

  it('parity bundle check prints the tokenizer', async () => {
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      const program = new Command('parity').exitOverride();
      registerBundle(program);
      await program.parseAsync(['bundle', 'check', tokDir], { from: 'user' });
    } finally {
      write.mockRestore();
    }
    expect(out.join('')).toContain(
      'text: tokenizer.json: tokenizer.json (BPE, 13 tokens, no special tokens added, BOS 256 prepended); at most 128 tokens, 0.9 frames per character, at most 115 frames\n',
    );
  });
});

describe('manifest checks of the tokenizer.json text section', () => {
  const refusal = async (dir: string): Promise<string> => {
    const err = await loadBundle(dir).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(BundleError);
    return (err as Error).message;
  };

  it('text.file is required', async () => {
    const dir = await variant((m) => delete m.text.file);
    expect(await refusal(dir)).toMatch(/bundle\.json: text\.file: /);
  });

  it('an unknown tokenizer kind names the kinds there are', async () => {
    const dir = await variant((m) => (m.text.tokenizer = 'sentencepiece'));
    expect(await refusal(dir)).toMatch(/bundle\.json: text\.tokenizer: Invalid discriminator value\. Expected 'byte' \| 'tokenizer\.json'$/);
  });

  it('text.bos must be a text embedding row', async () => {
    const dir = await variant((m) => (m.text.bos = 300));
    expect(await refusal(dir)).toContain('text.bos (300) must be a text embedding row (< embed.codecRowOffset 257)');
  });

  it('BOS + maxTokens + maxFrames must fit the talker positions', async () => {
    // 1 + 141 + 115 = 257 > 256 positions
    const dir = await variant((m) => (m.text.maxTokens = 141));
    expect(await refusal(dir)).toContain('talker.maxPositions (256) must hold 1 + text.maxTokens + maxFrames = 257');
    const noBos = await variant((m) => {
      m.text.maxTokens = 141;
      delete m.text.bos;
    });
    expect((await loadBundle(noBos)).tokenizer.info.limit).toBe(141); // 141 + 115 = 256 fits without BOS
  });
});
