import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-synth-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const synth = (...args: string[]) => runParity(['synth', '--text', 'hi', ...args], { timeoutMs: 60_000 });

/** One line on stderr, no stack, exit 2 (bad input), naming the flag and path. */
function expectRefusal(run: Awaited<ReturnType<typeof synth>>, text: string): void {
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^parity synth: .+\n$/);
  expect(run.stderr).toContain(text);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('parity synth output paths', () => {
  it('creates missing parent folders of --out and --trace (the same policy as compare --out)', async () => {
    const out = join(dir, 'new', 'deeper', 'a.wav');
    const trace = join(dir, 'other', 'a.jsonl');
    const run = await synth('--out', out, '--trace', trace);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('RIFF');
    expect(readFileSync(trace, 'utf8')).toContain('tts-parity-trace/1');
    expect(readdirSync(join(dir, 'new', 'deeper'))).toEqual(['a.wav']);
  });

  it('refuses a folder as --out in one line and leaves no temporary file', async () => {
    const work = join(dir, 'folder-case');
    mkdirSync(join(work, 'acc1'), { recursive: true });
    const run = await synth('--out', join(work, 'acc1'));
    expectRefusal(run, `--out ${join(work, 'acc1')}: is a folder`);
    expect(readdirSync(work)).toEqual(['acc1']);
    expect(readdirSync(join(work, 'acc1'))).toEqual([]);
  });

  it('refuses an existing --out file unless --force, and leaves it untouched', async () => {
    const out = join(dir, 'taken.wav');
    writeFileSync(out, 'keep me');
    expectRefusal(await synth('--out', out), 'already exists (use --force to replace it)');
    expect(readFileSync(out, 'utf8')).toBe('keep me');
    const forced = await synth('--out', out, '--force');
    expect(forced.status).toBe(0);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('RIFF');
  });

  it('an unwritable --trace is found before anything is written: no half-done output', async () => {
    const work = join(dir, 'trace-case');
    mkdirSync(work);
    writeFileSync(join(work, 'file'), 'x');
    const run = await synth('--out', join(work, 'a.wav'), '--trace', join(work, 'file', 'x', 'a.jsonl'));
    expectRefusal(run, `--trace ${join(work, 'file', 'x', 'a.jsonl')}: ${join(work, 'file')} is a file, not a folder`);
    expect(existsSync(join(work, 'a.wav'))).toBe(false);
    expect(readdirSync(work)).toEqual(['file']);
  });

  it('refuses --trace naming the same file as --out', async () => {
    const out = join(dir, 'same.wav');
    expectRefusal(await synth('--out', out, '--trace', out), 'the same file as --out');
    expect(existsSync(out)).toBe(false);
  });
});
