import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-serve-data-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parity serve --data-dir', () => {
  it('a file given as the history folder is refused before serving (exit 2, one line)', async () => {
    const file = join(dir, 'history.txt');
    writeFileSync(file, 'not a folder');
    const run = await runParity(['serve', '--data-dir', file]);
    expect(run.stderr).toBe(`parity serve: --data-dir ${file}: is a file, not a folder; give a folder for the history (created if missing)\n`);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
  });

  it('a folder under a file is refused, naming the file', async () => {
    const file = join(dir, 'blocker');
    writeFileSync(file, 'x');
    const run = await runParity(['serve', '--data-dir', join(file, 'history')]);
    expect(run.stderr).toBe(`parity serve: --data-dir ${join(file, 'history')}: ${file} is a file, not a folder\n`);
    expect(run.status).toBe(2);
  });
});
