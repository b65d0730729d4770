import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';
import { bpeTokenizerJson } from '../unit/engine/bundle/tokenizer-fixtures.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-synth-tok-'));
const bundle = join(dir, 'tok');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The demo architecture (eager fp32 only) switched to the BPE fixture with no unk_token, as
// docs/bundle-format.md describes switching a bundle to a tokenizer.json.
beforeAll(async () => {
  await writeDemoBundle(bundle, 7, { presets: ['eager'], precisions: ['fp32'], faultVariants: false });
  writeFileSync(join(bundle, 'tokenizer.json'), JSON.stringify(bpeTokenizerJson({ unk: null })));
  const manifest = JSON.parse(readFileSync(join(bundle, 'bundle.json'), 'utf8')) as Record<string, unknown>;
  manifest.text = { tokenizer: 'tokenizer.json', file: 'tokenizer.json', bos: 256, framesPerChar: 0.9, maxTokens: 64 };
  writeFileSync(join(bundle, 'bundle.json'), JSON.stringify(manifest, null, 2));
});

describe('parity synth with a tokenizer.json that has no unk_token', () => {
  it('refuses "hello xyz" naming the piece with no id (exit 2, no WAV) instead of synthesizing "hello"', async () => {
    const out = join(dir, 'dropped.wav');
    const run = await runParity(['synth', '--bundle', bundle, '--text', 'hello xyz', '--out', out], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('parity synth: text: the piece "xyz" has no id in tokenizer.json (not in its vocabulary, and the tokenizer has no unk_token)\n');
    expect(run.status).toBe(2);
    expect(existsSync(out)).toBe(false);
  }, 90_000);
});
