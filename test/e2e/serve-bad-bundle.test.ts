import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDemoBundle } from '../../electron/engine/demo/resolve-demo-bundle.js';
import { buildOnce } from './build-once.js';

// A bundle whose bundle.json names the talker input "input_embeds" (the contract says "inputs_embeds").
let bad: string;
beforeAll(async () => {
  buildOnce();
  bad = join(mkdtempSync(join(tmpdir(), 'parity-bad-bundle-')), 'bundle');
  cpSync(await resolveDemoBundle(), bad, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(bad, 'bundle.json'), 'utf8'));
  manifest.talker.exports['eager-fp32'].inputs[0].name = 'input_embeds';
  writeFileSync(join(bad, 'bundle.json'), JSON.stringify(manifest));
}, 60_000);

const parity = (args: string[]) => spawnSync(process.execPath, ['bin/parity.js', ...args], { encoding: 'utf8', timeout: 30_000 });

describe('parity serve with a bad bundle', () => {
  it('exits 2 before listening, with the one-line error synth gives', () => {
    const synth = parity(['synth', '--bundle', bad, '--text', 'hi', '--profile', 'eager', '--out', join(tmpdir(), 'never.wav')]);
    const serve = parity(['serve', '--bundle', bad, '--port', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'parity-bad-data-'))]);
    expect(serve.status).toBe(2);
    expect(serve.stdout).not.toMatch(/http:\/\//);
    const lines = serve.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^parity serve: (\S*\/)?bundle\.json: talker eager-fp32 .* must declare input "inputs_embeds"/);
    expect(synth.status).toBe(2);
    expect(lines[0].replace(/^parity serve: /, '')).toBe(synth.stderr.trim().replace(/^parity synth: /, ''));
  }, 60_000);
});
