import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// `parity bench --out` goes through the CLI's one writer (host/fs/output-files.ts): it used to write
// `<out>.tmp` and rename it over whatever was at --out. Each refusal comes before any measuring.
const dir = mkdtempSync(join(tmpdir(), 'parity-bench-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bench = (out: string, ...flags: string[]) => runParity(['bench', '--no-engine', '--no-memory', '--runs', '1', '--out', out, ...flags], { timeoutMs: 30_000 });

describe('parity bench --out', () => {
  it('refuses an existing file without --force: exit 2, one line, the file untouched, nothing measured', async () => {
    const out = join(dir, 'results.json');
    writeFileSync(out, 'earlier results\n');
    const run = await bench(out);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`parity bench: --out ${out}: already exists (use --force to replace it)\n`);
    expect(run.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('earlier results\n');
  });

  it('refuses a FIFO and a folder, --force or not, leaving no temporary', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const folder = join(dir, 'folder.json');
    mkdirSync(folder);
    const before = readdirSync(dir).sort();
    const f = await bench(fifo, '--force');
    expect(f.status).toBe(2);
    expect(f.stderr).toBe(`parity bench: --out ${fifo}: is not a regular file (a device, FIFO or socket); give a file path\n`);
    const d = await bench(folder, '--force');
    expect(d.status).toBe(2);
    expect(d.stderr).toBe(`parity bench: --out ${folder}: is a folder (give a file path)\n`);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
