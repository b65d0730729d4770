import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { StudioApi, StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { EXPORT_FOLDER } from '../../../electron/host/export-fixture.js';
import { writeFixtureFolder } from '../../../electron/host/fixture/write-fixture-folder.js';
import { DOWNLOAD_IDLE_MS, startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { STUCK_DOWNLOAD_BYTES } from './stuck-download-size.js';
import { connectBrowserClient } from './browser-client.js';

// A client that stops reading mid-download: the server must drop it after the idle time and close the
// export's files, while other downloads go on. The idle time here is short so the test takes a second.
const root = mkdtempSync(join(tmpdir(), 'download-idle-'));
const exportsDir = join(root, 'exports');
const IDLE_MS = 400;
// Larger than the loopback socket buffers take while the client reads nothing (stuck-download-size.ts),
// so the server is still inside a.wav when the client stops.
const BIG = STUCK_DOWNLOAD_BYTES;

const BIG_ID = '20250101-120000-b1b1b1';
const SMALL_ID = '20250101-120000-5a5a5a';

// A host whose export of BIG_ID writes a BIG a.wav, of any other id a 4 KiB one, and a report.md.
const fakeHost = {
  exportLocation: async ({ id }: { id: string }) => ({ dir: join(exportsDir, id) }),
  exportFixture: async ({ id, dir }: { id: string; dir: string }) => {
    const files = { 'a.wav': new Uint8Array(id === BIG_ID ? BIG : 4096).fill(7), 'report.md': `# ${id}\n` };
    await writeFixtureFolder(dir, files, { force: true, words: EXPORT_FOLDER });
    return { dir, files: Object.keys(files).sort() };
  },
  on: () => () => undefined,
} as unknown as StudioHandlers;

/** Exports `<exportsDir>/<id>` through the server (as the page does) and returns its download id. */
async function exportFolder(id: string): Promise<string> {
  const exported = await studio.exportFixture({ id, dir: join(exportsDir, id), overwrite: true });
  return exported.downloadId!;
}

/** The file descriptors this process holds on files under `dir` (Linux /proc). */
function openUnder(dir: string): string[] {
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir + '/')) found.push(target);
    } catch {
      // closed between the listing and the read
    }
  }
  return found;
}

async function until(what: string, test: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function get(id: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: `/download/${id}`, headers: { Authorization: `Bearer ${server.token}` } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let server: RunningServer;
let ws: WebSocket;
let studio: StudioApi;

beforeAll(async () => {
  server = await startStudioServer({ studio: fakeHost, staticDir: join(root, 'renderer'), port: 0, downloadIdleMs: IDLE_MS });
  ({ ws, studio } = await connectBrowserClient(server));
});
afterAll(async () => {
  ws.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('browser mode: a download whose client stops reading', () => {
  it('is dropped after the idle time with its files closed, while other downloads are served', async () => {
    expect(DOWNLOAD_IDLE_MS).toBe(60_000);
    const pausedId = await exportFolder(BIG_ID);
    const paused = await get(pausedId);
    expect(paused.statusCode).toBe(200);
    const ended = new Promise<string>((resolve) => {
      paused.once('end', () => resolve('end')).once('aborted', () => resolve('aborted')).once('error', () => resolve('error'));
    });
    await new Promise((r) => paused.once('data', r));
    paused.pause();
    const pausedAt = Date.now(); // the server's last progress is at or after this
    const pausedDir = join(exportsDir, BIG_ID);
    // Mid-zip: the export's files are open while the client holds the download.
    expect(openUnder(pausedDir).length).toBeGreaterThan(0);

    const otherId = await exportFolder(SMALL_ID);
    const other = await get(otherId);
    expect(other.statusCode).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(await readAll(other))))).toEqual([`${SMALL_ID}/a.wav`, `${SMALL_ID}/report.md`]);

    // A paused client reads nothing from its socket, so it cannot notice the drop until it reads again:
    // the server's side is what is measured. Without the idle timeout the files stay open (the test fails).
    await until(`the files under ${pausedDir} are closed`, () => openUnder(pausedDir).length === 0, IDLE_MS + 4000);
    expect(Date.now() - pausedAt).toBeGreaterThanOrEqual(IDLE_MS - 50); // not before the idle time (timer slack)
    // Reading on, the client gets what the sockets held, then a cut-off body: never a complete zip.
    paused.resume();
    expect(await ended).not.toBe('end');

    // The server goes on serving, the dropped export included (its id still names a whole export).
    const again = await get(pausedId);
    expect(again.statusCode).toBe(200);
    const zip = unzipSync(new Uint8Array(await readAll(again)));
    expect(zip[`${BIG_ID}/a.wav`].length).toBe(BIG);
  }, 20_000);
});
