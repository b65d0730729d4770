import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileChecked, readFixtureFileSync } from '../../../../electron/engine/comparison/read-inputs.js';
import { readTraceFile } from '../../../../electron/engine/comparison/stream-trace.js';

// One check serves every whole-file read (inputs, fixture files, traces): what is not a regular file is
// refused in one line before any byte is read (a FIFO would block forever, /dev/zero would grow until
// memory runs out). The links and the FIFO are made in a temporary folder; nothing under /dev is read.
const dir = mkdtempSync(join(tmpdir(), 'read-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const folder = join(dir, 'folder');
const fifo = join(dir, 'fifo');
const zero = join(dir, 'zero');
mkdirSync(folder);
execFileSync('mkfifo', [fifo]);
symlinkSync('/dev/zero', zero);

describe('read-inputs: the one check before a file is read whole', () => {
  it('an input that is a folder, a FIFO or a link to a device: one line naming it and what it is', async () => {
    await expect(readFileChecked(folder)).rejects.toThrow(`${folder}: not a regular file (a folder)`);
    await expect(readFileChecked(fifo)).rejects.toThrow(`${fifo}: not a regular file (a FIFO (named pipe))`);
    await expect(readFileChecked(zero)).rejects.toThrow(`${zero}: not a regular file (a character device)`);
    await expect(readTraceFile(fifo)).rejects.toThrow(`${fifo}: not a regular file (a FIFO (named pipe))`);
    await expect(readFileChecked(join(dir, 'missing.wav'))).rejects.toThrow(`${join(dir, 'missing.wav')}: cannot read (no such file or folder)`);
  });

  it('a fixture file: the same check, saying what a fixture folder holds; a missing file is undefined', () => {
    expect(() => readFixtureFileSync(fifo)).toThrow(`${fifo}: not a regular file (a FIFO (named pipe)); a fixture folder holds only files`);
    expect(() => readFixtureFileSync(folder)).toThrow(`${folder}: not a regular file (a folder); a fixture folder holds only files`);
    expect(readFixtureFileSync(join(dir, 'missing.wav'))).toBeUndefined();
    writeFileSync(join(dir, 'ok.json'), '{}');
    expect(new TextDecoder().decode(readFixtureFileSync(join(dir, 'ok.json')))).toBe('{}');
  });
});
