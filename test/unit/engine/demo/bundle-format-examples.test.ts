import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { writeDemoBundle } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { parseDemoConfig } from '../../../../electron/engine/demo/demo-config-schema.js';
import { QWEN3_SHAPED } from '../../../../electron/engine/demo/qwen3-shaped-config.js';
import { tokenizeText } from '../../../../electron/engine/text-input.js';
import { SMALL } from '../bundle/small-bundle.js';
import { bpeTokenizerJson } from '../bundle/tokenizer-fixtures.js';

/** The JSON block after `<!-- example: NAME -->` in docs/bundle-format.md, so the page's examples are the ones tested. */
async function example(name: string): Promise<string> {
  const page = await readFile('docs/bundle-format.md', 'utf8');
  const found = new RegExp(`<!-- example: ${name} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(page);
  if (!found) throw new Error(`docs/bundle-format.md has no example "${name}"`);
  return found[1];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bundle-format-examples-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('docs/bundle-format.md examples', () => {
  it('the demo config example is a valid DemoConfig (the tests\' SMALL) and builds a bundle that loads', async () => {
    const config = parseDemoConfig(JSON.parse(await example('demo-config')), 'docs example');
    expect(config).toEqual(SMALL);
    const out = join(dir, 'small');
    await writeDemoBundle(out, 20240611, { config, presets: ['eager'], precisions: ['fp32'], faultVariants: false });
    const loaded = await loadBundle(out);
    expect(loaded.manifest.name).toBe('demo-custom');
  });

  it('the tokenizer.json example is the hand-derived BPE fixture; switching the demo bundle to it gives the documented ids', async () => {
    const tokenizer = JSON.parse(await example('tokenizer-json')) as Record<string, unknown>;
    expect(tokenizer).toEqual(bpeTokenizerJson());
    const out = join(dir, 'demo-tok');
    await writeDemoBundle(out, 20240611, { presets: ['eager'], precisions: ['fp32'], faultVariants: false });
    await writeFile(join(out, 'tokenizer.json'), JSON.stringify(tokenizer, null, 2));
    const manifest = JSON.parse(await readFile(join(out, 'bundle.json'), 'utf8')) as Record<string, unknown>;
    manifest.text = (JSON.parse(`{${await example('tokenizer-text-entry')}}`) as { text: unknown }).text;
    await writeFile(join(out, 'bundle.json'), JSON.stringify(manifest, null, 2));
    const loaded = await loadBundle(out);
    expect(loaded.tokenizer.info.summary).toMatch(/^tokenizer\.json: tokenizer\.json \(BPE, 13 tokens, /);
    // [text.bos 256, "hello" 11, "world" 5 4 6 3 7, "!" 12], as tokenizer-fixtures.ts derives by hand.
    expect(tokenizeText('hello world!', loaded.manifest, loaded.tokenizer).ids).toEqual([256, 11, 5, 4, 6, 3, 7, 12]);
    // With "unk_token": null, "hello xyz" is refused, not read as "hello".
    (tokenizer.model as Record<string, unknown>).unk_token = null;
    await writeFile(join(out, 'tokenizer.json'), JSON.stringify(tokenizer));
    const noUnk = await loadBundle(out);
    expect(() => tokenizeText('hello xyz', noUnk.manifest, noUnk.tokenizer)).toThrow('text: the piece "xyz" has no id in tokenizer.json (not in its vocabulary, and the tokenizer has no unk_token)');
  });

  it('the complete demo-shape bundle.json is what the builder writes for the SMALL config, eager fp32 only, and it loads', async () => {
    const documented = JSON.parse(await example('bundle-json-demo')) as unknown;
    const opts = { config: SMALL, presets: ['eager'], precisions: ['fp32'], faultVariants: false } as const;
    expect(documented).toEqual(JSON.parse(new TextDecoder().decode(demoBundleFiles(20240611, opts).get('bundle.json'))));
    const out = join(dir, 'doc-demo');
    await writeDemoBundle(out, 20240611, opts);
    await writeFile(join(out, 'bundle.json'), JSON.stringify(documented));
    expect((await loadBundle(out)).manifest.embed.export?.file).toBe('embed.onnx');
  });

  it('the complete Qwen3-shaped bundle.json is what the builder writes for QWEN3_SHAPED, eager and graph fp32, and it loads', async () => {
    const documented = JSON.parse(await example('bundle-json-qwen3')) as unknown;
    const opts = { config: QWEN3_SHAPED, presets: ['eager', 'graph'], precisions: ['fp32'], faultVariants: false } as const;
    expect(documented).toEqual(JSON.parse(new TextDecoder().decode(demoBundleFiles(20240611, opts).get('bundle.json'))));
    const out = join(dir, 'doc-qwen3');
    await writeDemoBundle(out, 20240611, opts);
    await writeFile(join(out, 'bundle.json'), JSON.stringify(documented));
    expect((await loadBundle(out)).tableFile?.rows).toBe(454);
  });

  it('the Qwen3-shaped config example is QWEN3_SHAPED', async () => {
    expect(parseDemoConfig(JSON.parse(await example('qwen3-config')), 'docs example')).toEqual(QWEN3_SHAPED);
  });
});
