import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// One real fixture, then copies whose a.wav is replaced by something that is not a file. Each must fail
// alone, in one line naming the file, without reading it (a link to /dev/zero would grow until memory
// runs out; a FIFO would block forever), while the intact fixture beside it still passes.
const dir = mkdtempSync(join(tmpdir(), 'parity-gate-broken-'));
const all = join(dir, 'fixtures');
const good = join(all, 'good');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const run = await runParity(['compare', '--text', 'Broken.', '--a', 'graph', '--b', 'graph', '--out', good], { timeoutMs: 60_000 });
  expect(run.status).toBe(0);
}, 90_000);

function brokenCopy(name: string, replaceAWav: (path: string) => void): string {
  const to = join(all, name);
  cpSync(good, to, { recursive: true });
  rmSync(join(to, 'a.wav'));
  replaceAWav(join(to, 'a.wav'));
  return to;
}

describe('parity gate on fixtures whose files are not files', () => {
  it('a link to /dev/zero, a FIFO, a folder and a dangling link each fail alone; the intact fixture passes', async () => {
    const zero = brokenCopy('zero', (p) => symlinkSync('/dev/zero', p));
    const fifo = brokenCopy('fifo', (p) => execFileSync('mkfifo', [p]));
    const folder = brokenCopy('folder', (p) => mkdirSync(p));
    const dangling = brokenCopy('dangling', (p) => symlinkSync(join(dir, 'nowhere.wav'), p));
    // A half-written folder a killed run left behind is not a fixture.
    cpSync(good, join(all, '.good.tmp-abc'), { recursive: true });
    symlinkSync(join(dir, 'gone'), join(all, 'dangling-link'));
    const run = await runParity(['gate', all], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`PASS ${good}`);
    expect(run.stdout).toContain(`FAIL ${zero}\n  - ${join(zero, 'a.wav')}: not a regular file (a character device); a fixture folder holds only files\n`);
    expect(run.stdout).toContain(`FAIL ${fifo}\n  - ${join(fifo, 'a.wav')}: not a regular file (a FIFO (named pipe)); a fixture folder holds only files\n`);
    expect(run.stdout).toContain(`FAIL ${folder}\n  - ${join(folder, 'a.wav')}: not a regular file (a folder); a fixture folder holds only files\n`);
    expect(run.stdout).toContain(`FAIL ${dangling}: graph vs graph: recorded identical\n  - a.wav is missing\n`);
    expect(run.stdout).not.toContain('.good.tmp-abc');
    expect(run.stdout).toContain('gate: 1 passed, 4 failed\n');
    expect(run.status).toBe(1);
    expect(run.maxRssMiB).toBeLessThan(1024);
  });
});
