import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../electron/common/errors.js';
import { checkOutputFile, writeOutputFiles } from '../../electron/host/fs/output-files.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-write-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeOutputFiles', () => {
  it('all or nothing: a failure while writing the second file removes the first one\'s temporary too', async () => {
    // 250 characters pass the check (a name may have 255 bytes on Linux file systems) but its temporary
    // name (".<name>.tmp-<pid>") is longer than 255: writing it fails with ENAMETOOLONG.
    const long = 'x'.repeat(250);
    const error = await writeOutputFiles([
      { flag: '--out', path: join(dir, 'a.wav'), data: 'a' },
      { flag: '--trace', path: join(dir, long), data: 'b' },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(new RegExp(`^--trace ${join(dir, long)}: cannot write \\(`));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes every file when all can be written', async () => {
    await writeOutputFiles([
      { flag: '--out', path: join(dir, 'ok', 'a.wav'), data: 'a' },
      { flag: '--trace', path: join(dir, 'ok', 'a.jsonl'), data: 'b' },
    ]);
    expect(readdirSync(join(dir, 'ok')).sort()).toEqual(['a.jsonl', 'a.wav']);
  });

  it('never replaces a device or a FIFO, even with force', async () => {
    await expect(checkOutputFile({ flag: '--out', path: '/dev/null' }, { force: true })).rejects.toThrow(
      '--out /dev/null: is not a regular file (a device, FIFO or socket); give a file path',
    );
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(writeOutputFiles([{ flag: '--trace', path: fifo, data: 'x' }], { force: true })).rejects.toThrow(
      `--trace ${fifo}: is not a regular file (a device, FIFO or socket); give a file path`,
    );
    expect(statSync(fifo).isFIFO()).toBe(true);
    rmSync(fifo);
  });

  it('a path ending in a separator names a folder, so it is refused as a file target', async () => {
    await expect(writeOutputFiles([{ flag: '--out', path: join(dir, 'newdir') + '/', data: 'x' }])).rejects.toThrow(
      `--out ${join(dir, 'newdir')}/: ends with a path separator, so it names a folder (give a file path)`,
    );
    expect(readdirSync(dir).includes('newdir')).toBe(false);
  });

  it('still replaces a regular file with force', async () => {
    const file = join(dir, 'old.wav');
    writeFileSync(file, 'old');
    await writeOutputFiles([{ flag: '--out', path: file, data: 'new' }], { force: true });
    expect(readFileSync(file, 'utf8')).toBe('new');
    rmSync(file);
  });
});
