import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoBundleFiles } from '../../electron/engine/demo/build-demo-bundle.js';
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
