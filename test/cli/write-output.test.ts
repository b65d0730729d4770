import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../electron/common/errors.js';
import { writeOutputFiles } from '../../electron/cli/write-output.js';

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
});
