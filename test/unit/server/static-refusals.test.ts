import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';

// The built renderer is served through the one reading path (host/read-static.ts over
// engine/fs/read-checked.ts). It used to stat and readFile: a link leading out of the folder was
// served, and a FIFO swapped in after the stat would hang the request. Each bad file below is answered
// 403 with one line naming its URL path (never its bytes), logged once, and the server serves on.

const SECRET = 'SECRET-static-do-not-serve';
let server: RunningServer;
let host: StudioHost;
const logged: string[] = [];
const root = mkdtempSync(join(tmpdir(), 'static-refusals-'));
const dir = join(root, 'renderer');

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(root, 'outside.js'), SECRET);
  execFileSync('mkfifo', [join(dir, 'assets', 'fifo.js')]);
  symlinkSync('/dev/zero', join(dir, 'assets', 'zero.js'));
  symlinkSync(join(root, 'outside.js'), join(dir, 'assets', 'outside.js'));
  mkdirSync(join(dir, 'assets', 'folder.js'));
  // Sparse: the size is real, no data blocks are written.
  writeFileSync(join(dir, 'assets', 'huge.js'), '');
  truncateSync(join(dir, 'assets', 'huge.js'), 64 * 1024 * 1024 + 1);
  host = new StudioHost({ dataDir: join(root, 'data') });
  server = await startStudioServer({ studio: host, staticDir: dir, port: 0, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await server.close();
  await host.dispose();
});

const get = async (path: string) => {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { Authorization: `Bearer ${server.token}` } });
  return { status: res.status, body: await res.text() };
};

describe('browser mode: a file of the renderer folder that is not one', () => {
  it.each([
    ['a FIFO', '/assets/fifo.js', 'refused: /assets/fifo.js: not a regular file (a FIFO (named pipe))'],
    ['a link to /dev/zero', '/assets/zero.js', `refused: /assets/zero.js: a link to /dev/zero, outside the built renderer folder (${dir})`],
    ['a link outside the folder', '/assets/outside.js', `refused: /assets/outside.js: a link to ${join(root, 'outside.js')}, outside the built renderer folder (${dir})`],
    ['a folder', '/assets/folder.js', 'refused: /assets/folder.js: not a regular file (a folder)'],
    ['a file past the limit', '/assets/huge.js', `refused: /assets/huge.js: ${64 * 1024 * 1024 + 1} bytes, larger than the 64 MiB a file of the built renderer may have`],
  ])('%s: 403 and one line, logged once, no byte of it served; the server serves on', async (_what, path, line) => {
    const before = logged.length;
    const res = await get(path);
    expect(res).toEqual({ status: 403, body: `${line}\n` });
    expect(res.body).not.toContain(SECRET);
    expect(logged.slice(before)).toEqual([`GET "${path}": ${line}`]);
    expect((await get('/')).status).toBe(200);
  });

  it('answers a missing file 404 as before', async () => {
    expect(await get('/assets/none.js')).toEqual({ status: 404, body: 'not found\n' });
  });
});
