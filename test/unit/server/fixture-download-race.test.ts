import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { StudioApi, StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { sealReport, verifySeal } from '../../../electron/engine/comparison/fixture-integrity.js';
import { EXPORT_FOLDER } from '../../../electron/host/export-fixture.js';
import { writeFixtureFolder } from '../../../electron/host/fixture/write-fixture-folder.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { STUCK_DOWNLOAD_BYTES } from './stuck-download-size.js';
import { connectBrowserClient } from './browser-client.js';

// A host whose exports are written by the host's own writer (atomic folder swap on Replace), each one
// with other bytes and a sealed report.json, so a zip mixing two exports shows in its bytes and its seal.
const root = mkdtempSync(join(tmpdir(), 'download-race-'));
const exportsDir = join(root, 'exports');
const HISTORY_ID = '20250101-120000-abcdef';
// Larger than the loopback socket buffers take while the client reads nothing (stuck-download-size.ts),
// so the server is still inside a.wav when the client stops.
const BIG = STUCK_DOWNLOAD_BYTES;
let generation = 0;
const written: Record<string, Uint8Array | string>[] = [];

function fixtureFiles(n: number): Record<string, Uint8Array | string> {
  const files: Record<string, Uint8Array | string> = {
    'a.wav': new Uint8Array(BIG).fill(n),
    'b.wav': new Uint8Array(4096).fill(100 + n),
    'report.md': `# export ${n}\n`,
  };
  files['report.json'] = sealReport({ export: n }, files);
  return files;
}

async function writeGeneration(dir: string, force: boolean): Promise<{ dir: string; files: string[] }> {
  const files = fixtureFiles(++generation);
  written[generation] = files;
  await writeFixtureFolder(dir, files, { force, words: EXPORT_FOLDER });
  return { dir, files: Object.keys(files).sort() };
}

const fakeHost = {
  exportLocation: async ({ id }: { id: string }) => ({ dir: join(exportsDir, id) }),
  exportFixture: async ({ dir, overwrite }: { dir: string; overwrite: boolean }) => writeGeneration(dir, overwrite),
  on: () => () => undefined,
} as unknown as StudioHandlers;

let server: RunningServer;
let ws: WebSocket;
let studio: StudioApi;

beforeAll(async () => {
  server = await startStudioServer({ studio: fakeHost, staticDir: join(root, 'renderer'), port: 0 });
  ({ ws, studio } = await connectBrowserClient(server));
});
afterAll(async () => {
  ws.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Starts a download and holds it after its first chunk: the server is then mid-zip, waiting to drain.
 * `rest()` reads on to the end (listening from the start: a short body may end while held).
 */
function startDownload(id: string): Promise<{ status: number; rest(): Promise<Buffer> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: `/download/${id}`, headers: { Authorization: `Bearer ${server.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      const ended = new Promise<Buffer>((done, fail) => res.on('end', () => done(Buffer.concat(chunks))).on('error', fail));
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (chunks.length === 1) {
          res.pause();
          resolve({ status: res.statusCode!, rest: () => (res.resume(), ended) });
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function download(id: string): Promise<{ status: number; body: Buffer }> {
  const held = await startDownload(id);
  return { status: held.status, body: await held.rest() };
}

/** Every entry is `<folder>/<name>`, byte for byte the files of export `n`, and its seal holds. */
function expectExport(zip: Buffer, folder: string, n: number): void {
  const entries = unzipSync(new Uint8Array(zip));
  const files = written[n];
  expect(Object.keys(entries).sort()).toEqual(Object.keys(files).sort().map((name) => `${folder}/${name}`));
  for (const [name, content] of Object.entries(files)) {
    const expected = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
    expect(Buffer.from(entries[`${folder}/${name}`]).equals(expected), `${name} of export ${n}`).toBe(true);
  }
  const report = new TextDecoder().decode(entries[`${folder}/report.json`]);
  expect(verifySeal(report, (name) => entries[`${folder}/${name}`])).toEqual([]);
}

describe('browser mode: a download while the same folder is exported again', () => {
  it('zips the export it was started on, whole, while a forced re-export swaps the folder; the old id then answers 410', async () => {
    const dir = (await studio.exportLocation({ id: HISTORY_ID })).dir;
    const first = await studio.exportFixture({ id: HISTORY_ID, dir, overwrite: false });
    const held = await startDownload(first.downloadId!);
    expect(held.status).toBe(200);
    // Replace runs to its end (old folder renamed aside, new one in place, old one removed) mid-download.
    const second = await studio.exportFixture({ id: HISTORY_ID, dir, overwrite: true });
    expect(second.downloadId).not.toBe(first.downloadId);
    const old = await download(first.downloadId!);
    expect([old.status, old.body.toString()]).toEqual([410, `${dir} was replaced by a newer export of this folder: use the newer Download link\n`]);

    expectExport(await held.rest(), basename(dir), 1);
    const fresh = await download(second.downloadId!);
    expect(fresh.status).toBe(200);
    expectExport(fresh.body, basename(dir), 2);
  }, 30_000);

  it('refuses (410) an id whose folder was replaced by something other than this server, instead of serving the new files', async () => {
    const dir = (await studio.exportLocation({ id: HISTORY_ID })).dir;
    const exported = await studio.exportFixture({ id: HISTORY_ID, dir, overwrite: true });
    await writeGeneration(dir, true); // as `parity compare --out <dir> --force` would
    const res = await download(exported.downloadId!);
    expect([res.status, res.body.toString()]).toEqual([410, `the export is gone: ${dir} was replaced since this export (by another export or a parity command); export the fixture again\n`]);
  }, 30_000);
});
