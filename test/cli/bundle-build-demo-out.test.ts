import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoBundleFiles } from '../../electron/engine/demo/build-demo-bundle.js';
import { SMALL } from '../unit/engine/bundle/small-bundle.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-build-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const names = [...demoBundleFiles().keys()].sort();

describe('parity bundle build-demo --out', () => {
  it('creates missing parent folders; an existing folder needs --force, which writes into it', async () => {
    const out = join(dir, 'a', 'b');
    const first = await runParity(['bundle', 'build-demo', '--out', out], { timeoutMs: 60_000 });
    expect(first.status, first.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(names);
    const again = await runParity(['bundle', 'build-demo', '--out', out]);
    expect(again.stderr).toBe(`parity bundle build-demo: --out ${out}: already exists (use --force to write into it)\n`);
    expect(again.status).toBe(2);
    writeFileSync(join(out, 'mine.txt'), 'kept');
    const forced = await runParity(['bundle', 'build-demo', '--out', out, '--force'], { timeoutMs: 60_000 });
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('kept');
    expect(readdirSync(out).filter((n) => n.includes('.tmp-'))).toEqual([]);
  }, 120_000);

  it('a file where the folder (or a parent) should be: one line, exit 2, nothing written', async () => {
    const work = join(dir, 'file-case');
    mkdirSync(work);
    writeFileSync(join(work, 'f'), 'x');
    const onFile = await runParity(['bundle', 'build-demo', '--out', join(work, 'f'), '--force']);
    expect(onFile.stderr).toBe(`parity bundle build-demo: --out ${join(work, 'f')}: is a file, not a folder\n`);
    expect(onFile.status).toBe(2);
    const under = await runParity(['bundle', 'build-demo', '--out', join(work, 'f', 'sub')]);
    expect(under.stderr).toBe(`parity bundle build-demo: --out ${join(work, 'f', 'sub')}: ${join(work, 'f')} is a file, not a folder\n`);
    expect(under.status).toBe(2);
    expect(readdirSync(work)).toEqual(['f']);
    expect(readFileSync(join(work, 'f'), 'utf8')).toBe('x');
  });
});

describe('parity bundle build-demo --config', () => {
  it('builds the demo architecture at the config\'s sizes, named and described as such; bundle check opens it', async () => {
    const config = join(dir, 'small.json');
    writeFileSync(config, JSON.stringify(SMALL, null, 2));
    const out = join(dir, 'small');
    const built = await runParity(['bundle', 'build-demo', '--config', config, '--out', out], { timeoutMs: 60_000 });
    expect(built.status, built.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8')) as { name: string; description: string; sampleRate: number; codebooks: number };
    expect(manifest).toMatchObject({ name: 'demo-custom', sampleRate: 16000, codebooks: 4 });
    expect(manifest.description).toMatch(/^Demo architecture, custom config \(16000 Hz, 50 frames\/s, 4 codebooks × 32 codes; .*\), seed 20240611: untrained/);
    const check = await runParity(['bundle', 'check', out], { timeoutMs: 60_000 });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^bundle demo-custom \(.*\) OK\n/);
    expect(check.stdout).toContain('audio: 16000 Hz, 50 frames/s, 4 codebooks × 32 codes');
    // SMALL's talker has one KV head: said in the singular.
    expect(check.stdout).toContain('talker: 2 layers, hidden 32, 2 query heads / 1 KV head × 8, max 64 positions;');
  }, 120_000);

  it('a bad config is one line naming the file and each bad field; bad JSON gives line and column; nothing is written', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...SMALL, talker: { ...SMALL.talker, kvHeads: 0 }, hopLength: 'x' }));
    const out = join(dir, 'not-written');
    const fields = await runParity(['bundle', 'build-demo', '--config', bad, '--out', out]);
    expect(fields.stderr).toBe(
      `parity bundle build-demo: --config ${bad}: not a demo config (2 problems): hopLength: Invalid input: expected number, received string; talker.kvHeads: Too small: expected number to be >=1\n`,
    );
    expect(fields.status).toBe(2);
    const broken = join(dir, 'broken.json');
    // Line 3 is `  "frameRate": }`: the "}" is its 16th character.
    writeFileSync(broken, '{\n  "sampleRate": 16000,\n  "frameRate": }\n');
    const syntax = await runParity(['bundle', 'build-demo', '--config', broken, '--out', out]);
    expect(syntax.stderr).toBe(`parity bundle build-demo: --config ${broken}: not valid JSON: Unexpected token '}' at line 3, column 16\n`);
    expect(syntax.status).toBe(2);
    const missing = await runParity(['bundle', 'build-demo', '--config', join(dir, 'absent.json'), '--out', out]);
    expect(missing.stderr).toBe(`parity bundle build-demo: ${join(dir, 'absent.json')}: cannot read (no such file or folder)\n`);
    expect(existsSync(out)).toBe(false);
  });
});
