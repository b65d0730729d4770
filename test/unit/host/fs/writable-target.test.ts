import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parentProblem, statOrUndefined } from '../../../../electron/host/fs/writable-target.js';

const root = mkdtempSync(join(tmpdir(), 'writable-'));
// A folder that refuses writing cannot be made here: the tests run as root, which may write anywhere.
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('parentProblem', () => {
  it('none when the nearest existing ancestor is a writable folder, however deep the missing part', async () => {
    expect(await parentProblem(join(root, 'out'))).toBeUndefined();
    expect(await parentProblem(join(root, 'a', 'b', 'c', 'out'))).toBeUndefined();
  });

  it('names an ancestor that is a file', async () => {
    const file = join(root, 'notes.txt');
    writeFileSync(file, 'x');
    expect(await parentProblem(join(file, 'sub', 'out'))).toBe(`${file} is a file, not a folder`);
  });
});

describe('statOrUndefined', () => {
  it('undefined for nothing there and for a path through a file', async () => {
    expect(await statOrUndefined(join(root, 'missing'))).toBeUndefined();
    writeFileSync(join(root, 'f'), 'x');
    expect(await statOrUndefined(join(root, 'f', 'below'))).toBeUndefined();
    expect((await statOrUndefined(root))?.isDirectory()).toBe(true);
  });
});
